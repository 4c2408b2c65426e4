"""The e-mail provider's tracking webhook (bounces and complaints: notifications/webhooks.py):
only that of the provider the site sends through (``EMAIL_PROVIDER``, config/email.py).

Before issue 26 anymail's every webhook was served: one whose signing key was not set raised
anymail's configuration error at each anonymous POST (a 500 and a traceback in the log each
time), and a POST without the basic-auth secret logged a traceback too. Now the webhook of a
provider the site does not send through, or whose settings are incomplete, answers 404; a POST
the provider's webhook refuses (no secret, a wrong signature) answers 400 with one line in the
log; nothing is read or written in either case.
"""

from __future__ import annotations

import functools
import logging

from anymail import urls as anymail_urls
from anymail.exceptions import (
    AnymailConfigurationError,
    AnymailImproperlyInstalled,
    AnymailWebhookValidationFailure,
)
from django.conf import settings
from django.http import Http404, HttpResponseBadRequest
from django.urls import URLPattern

from config.email import PROVIDERS

logger = logging.getLogger(__name__)

app_name = "anymail"


def _only_when_sending_through(provider: str, view):
    @functools.wraps(view)  # (keeps anymail's csrf_exempt)
    def wrapped(request, *args, **kwargs):
        if provider != settings.EMAIL_PROVIDER:
            raise Http404("the site does not send through this provider")
        try:
            return view(request, *args, **kwargs)
        except (AnymailConfigurationError, AnymailImproperlyInstalled) as e:
            raise Http404("this provider's webhook is not configured") from e
        except AnymailWebhookValidationFailure as e:
            logger.warning("refused a %s webhook call: %s", provider, e)
            return HttpResponseBadRequest("refused", content_type="text/plain")

    return wrapped


urlpatterns = [
    URLPattern(p.pattern, _only_when_sending_through(name, p.callback), p.default_args, p.name)
    for name in PROVIDERS
    for p in anymail_urls.urlpatterns
    if p.name == f"{name}_tracking_webhook"
]
