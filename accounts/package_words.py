# ruff: noqa: E501, RUF001 (the packages' messages, letter for letter)
"""Messages of allauth's and Django's own catalogues that the site words its own way (issue 26
item 21): their Spanish and Catalan address the player formally ("usted", "vós") where the site
says "tú" and "tu", write titles in title case, and have typos ("contacteu-nis", "no potser").
locale/ holds our translations of them, which win over the packages' (LOCALE_PATHS comes first);
they are listed here, as literals, so that makemessages keeps them in our catalogues. Nothing
calls this module's words: the packages ask for them by their English.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy

WORDS = (
    gettext_noop("Already have an account? Then please %(link)ssign in%(end_link)s."),
    ngettext_lazy("Ensure this value has at least %(limit_value)d character (it has %(show_value)d).",
                  "Ensure this value has at least %(limit_value)d characters (it has %(show_value)d).", 1),
    gettext_noop("Enter a valid email address."),
    gettext_noop("Forgot your password?"),
    gettext_noop("Forgotten your password? Enter your email address below, and we'll send you an email allowing you to reset it."),
    gettext_noop("If it was you, you can sign up for an account using the link below."),
    gettext_noop("If you have not created an account yet, then please %(link)ssign up%(end_link)s first."),
    gettext_noop("Password Reset"),
    gettext_noop("Please contact us if you have any trouble resetting your password."),
    gettext_noop("The password reset link was invalid, possibly because it has already been used.  Please request a <a href=\"%(passwd_reset_url)s\">new password reset</a>."),
    gettext_noop("The username and/or password you specified are not correct."),
    gettext_noop("This email confirmation link expired or is invalid. Please <a href=\"%(email_url)s\">issue a new email confirmation request</a>."),
    gettext_noop("This mail can be safely ignored if you did not initiate this action."),
    ngettext_lazy("This password is too short. It must contain at least %d character.",
                  "This password is too short. It must contain at least %d characters.", 1),
    gettext_noop("Verify Your Email Address"),
    gettext_noop("We have sent an email to you for verification. Follow the link provided to finalize the signup process. If you do not see the verification email in your main inbox, check your spam folder. Please contact us if you do not receive the verification email within a few minutes."),
    gettext_noop("We have sent you an email. If you have not received it please check your spam folder. Otherwise contact us if you do not receive it in a few minutes."),
    gettext_noop("You are receiving this email because you, or someone else, tried to access an account with email %(email)s. However, we do not have any record of such an account in our database."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password is now changed."),
    ngettext_lazy("Your password must contain at least %(min_length)d character.",
                  "Your password must contain at least %(min_length)d characters.", 1),
)
