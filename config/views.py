from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe


# A placeholder welcome page; the games app will put its lobby at "/".
@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")
