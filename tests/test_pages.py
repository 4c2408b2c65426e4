from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse


@pytest.mark.django_db
def test_home_page_is_the_lobby_and_welcomes_visitors_with_sign_in_links(client):
    response = client.get("/")

    html = response.content.decode()
    assert response.status_code == 200
    assert "Welcome to Monopoly" in html
    assert reverse("account_login") in html
    assert reverse("account_signup") in html
    assert reverse("games:lobby") == "/"
    assert "Open tables" in html


@pytest.mark.django_db
def test_base_layout_sets_the_csrf_header_for_htmx_and_loads_htmx_locally(client, alice):
    client.force_login(alice)

    response = client.get(reverse("games:lobby"))

    html = response.content.decode()
    csrf = response.context["csrf_token"]
    assert f"""hx-headers='{{"X-CSRFToken": "{csrf}"}}'""" in html
    assert "vendor/htmx.min.js" in html
    assert "Alice" in html
    assert reverse("accounts:profile") in html


def test_vendored_static_files_are_present():
    for name in ("vendor/htmx.min.js", "css/site.css", "img/favicon.svg"):
        path = finders.find(name)
        assert path, name

    with open(finders.find("vendor/htmx.min.js"), encoding="utf-8") as f:
        assert "htmx" in f.read(200)


@pytest.mark.django_db
def test_pages_answer_in_the_browsers_language_for_visitors(client):
    response = client.get(reverse("account_login"), HTTP_ACCEPT_LANGUAGE="es")

    assert response["Content-Language"] == "es"
    # allauth ships Spanish; the sign-in page is translated.
    assert "Iniciar sesión" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading"), [("en", "Page not found"), ("es", "Página no encontrada")]
)
def test_an_unknown_address_answers_the_site_s_own_404_page_in_the_reader_s_language(
    client, language, heading
):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)

    html = response.content.decode()
    assert response.status_code == 404
    assert heading in html
    assert 'href="/"' in html  # the way back to the lobby
    assert "Not Found</h1>" not in html  # not Django's bare page


def test_the_500_page_renders_without_a_request_context():
    from django.template import loader

    html = loader.get_template("500.html").render()

    assert "Something went wrong" in html
    assert 'href="/"' in html
