"""The channel form of a table's host, and a player's chat names (issue 29)."""

from __future__ import annotations

import re
import secrets

from django import forms
from django.utils.translation import gettext_lazy as _

from chats import providers, safety
from chats.models import Identity, Provider


class ChannelForm(forms.Form):
    provider = forms.ChoiceField(label=_("Where"), choices=Provider.choices, widget=forms.RadioSelect)
    discord_url = forms.CharField(label=_("Discord webhook URL"), required=False, max_length=300,
                                  widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
                                  help_text=_("Channel settings > Integrations > Webhooks > Copy webhook URL."))
    slack_token = forms.CharField(label=_("Slack bot token"), required=False, max_length=250,
                                  widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
                                  help_text=_("xoxb-…, of an app with the chat:write scope, invited to the channel."))
    slack_channel = forms.CharField(label=_("Slack channel id"), required=False, max_length=30,
                                    help_text=_("C0123456789: the channel's details show it."))
    telegram_token = forms.CharField(label=_("Telegram bot token"), required=False, max_length=80,
                                     widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
                                     help_text=_("From @BotFather; add the bot to the group."))
    telegram_chat = forms.CharField(label=_("Telegram chat id"), required=False, max_length=40,
                                    help_text=_("-1001234567890, or @channelname."))
    webhook_url = forms.CharField(label=_("Webhook URL"), required=False, max_length=500,
                                  widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
                                  help_text=_("https only. Each post is JSON, signed with HMAC-SHA256 in the "
                                              "X-Monopoly-Signature header."))
    webhook_secret = forms.CharField(label=_("Signing secret"), required=False, max_length=200,
                                     widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
                                     help_text=_("At least 16 characters; leave it empty and one is made for you "
                                                 "and shown once."))

    GROUPS = (("discord", ("discord_url",)), ("slack", ("slack_token", "slack_channel")),
              ("telegram", ("telegram_token", "telegram_chat")), ("webhook", ("webhook_url", "webhook_secret")))

    def groups(self) -> list:
        """Each provider's fields, for the template (a fieldset each, the others hidden by CSS)."""
        return [(provider, [self[name] for name in names]) for provider, names in self.GROUPS]

    def clean(self):
        data = super().clean()
        provider = data.get("provider")
        get = lambda name: (data.get(name) or "").strip()  # noqa: E731
        self.generated_secret = ""
        try:
            if provider == Provider.DISCORD:
                creds = providers.discord_parse(get("discord_url"))
                self.result = (provider, creds, _("Discord webhook ending …%(end)s") % {"end": creds["id"][-4:]})
            elif provider == Provider.SLACK:
                token, channel = get("slack_token"), get("slack_channel").upper()
                if not providers.SLACK_TOKEN.match(token):
                    self.add_error("slack_token", _("A bot token starts with xoxb-."))
                if not providers.SLACK_CHANNEL.match(channel):
                    self.add_error("slack_channel", _("A channel id looks like C0123456789."))
                self.result = (provider, {"token": token, "channel": channel},
                               _("Slack channel %(channel)s") % {"channel": channel})
            elif provider == Provider.TELEGRAM:
                token, chat = get("telegram_token"), get("telegram_chat")
                if not providers.TELEGRAM_TOKEN.match(token):
                    self.add_error("telegram_token", _("A bot token looks like 123456:ABC…, as @BotFather gave it."))
                if not providers.TELEGRAM_CHAT.match(chat):
                    self.add_error("telegram_chat", _("A chat id is a number (groups: -100…) or @channelname."))
                self.result = (provider, {"token": token, "chat": chat}, _("Telegram chat %(chat)s") % {"chat": chat})
            elif provider == Provider.WEBHOOK:
                url = safety.check_webhook_url(get("webhook_url"))
                secret = get("webhook_secret")
                if not secret:
                    secret = self.generated_secret = secrets.token_urlsafe(24)
                elif len(secret) < 16 or not re.fullmatch(r"[\x21-\x7e]+", secret):
                    self.add_error("webhook_secret", _("At least 16 characters, printable, no spaces."))
                from urllib.parse import urlsplit

                self.result = (provider, {"url": url, "secret": secret},
                               _("Webhook to %(host)s") % {"host": urlsplit(url).hostname})
        except safety.Refused as refused:
            field = "discord_url" if provider == Provider.DISCORD else "webhook_url"
            self.add_error(field, str(refused))
        return data


class IdentityForm(forms.ModelForm):
    class Meta:
        model = Identity
        fields = ["discord_id", "slack_id", "telegram_username"]
        help_texts = {
            "discord_id": _("Digits only (Discord: Settings > Advanced > Developer mode, then Copy user ID). "
                            "Empty: the Discord account you signed in with, if any."),
            "slack_id": _("Your profile > ⋯ > Copy member ID (U0123456789)."),
            "telegram_username": _("Without the @."),
        }

    def clean_discord_id(self) -> str:
        value = self.cleaned_data["discord_id"].strip()
        if value and not re.fullmatch(r"\d{15,20}", value):
            raise forms.ValidationError(_("A Discord user id is 15 to 20 digits."))
        return value

    def clean_slack_id(self) -> str:
        value = self.cleaned_data["slack_id"].strip().upper()
        if value and not re.fullmatch(r"[UW][A-Z0-9]{6,19}", value):
            raise forms.ValidationError(_("A Slack member id looks like U0123456789."))
        return value

    def clean_telegram_username(self) -> str:
        value = self.cleaned_data["telegram_username"].strip().lstrip("@")
        if value and not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{4,31}", value):
            raise forms.ValidationError(_("A Telegram username has 5 to 32 letters, digits or underscores."))
        return value
