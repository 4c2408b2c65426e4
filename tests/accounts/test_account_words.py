"""The sign-in, sign-up and password reset pages speak to the player as the site does (issue 26
item 21): "tú" in Spanish and "tu" in Catalan, never allauth's or Django's "usted" and "vós",
titles in sentence case, and none of their catalogues' Catalan typos. Our catalogues override
those messages (accounts/package_words.py lists them)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

PAGES = ("account_login", "account_signup", "account_reset_password", "account_reset_password_done",
         "account_reset_password_from_key_done", "account_email_verification_sent")
# The formal address and the typos each language's packages used on these pages.
FORMAL = {
    "es": r"\b(usted|su|sus|Introduzca|póngase|contáctenos|Asegúrese|Verifique|inicie|regístrese|Ha olvidado)\b",
    "ca": r"\b(heu|teniu|vostè|vostra|vostre|Introduïu|inicieu|registreu-vos|Seguiu|Us|us)\b|contacteu-nis|no potser",
}
INFORMAL = {"es": ("¿Has olvidado tu contraseña?", "Si aún no tienes una cuenta,"),
            "ca": ("Has oblidat la contrasenya?", "Si encara no tens un compte,")}


def _text(response) -> str:
    html = response.content.decode()
    main = re.search(r"<main.*?</main>", html, re.S).group(0)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


@pytest.mark.parametrize("language", ["es", "ca"])
def test_the_account_pages_address_the_player_as_the_site_does(client, language):
    texts = {name: _text(client.get(reverse(name), HTTP_ACCEPT_LANGUAGE=language)) for name in PAGES}
    # (A wrong sign-in and a weak sign-up show the forms' errors too.)
    texts["login error"] = _text(client.post(reverse("account_login"), {"login": "nobody", "password": "x"},
                                             HTTP_ACCEPT_LANGUAGE=language))
    texts["signup error"] = _text(client.post(reverse("account_signup"), {
        "email": "someone@example.com", "username": "someone", "password1": "1234", "password2": "1234"},
        HTTP_ACCEPT_LANGUAGE=language))
    for name, text in texts.items():
        assert not re.search(FORMAL[language], text), (name, re.search(FORMAL[language], text), text)
        assert "Restablecer Contraseña" not in text and "Restablir Contrasenya" not in text, (name, text)
    login = texts["account_login"]
    assert all(words in login for words in INFORMAL[language]), login
    assert not User.objects.exists()
