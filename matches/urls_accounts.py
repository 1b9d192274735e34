"""Account URLs, mounted at ``accounts/`` by scorekeeper/urls.py.

Django's own views (``django.contrib.auth.urls``: ``login``, ``logout``,
``password_change``, ``password_change_done``, ``password_reset``,
``password_reset_done``, ``password_reset_confirm``, ``password_reset_complete``) plus
our ``signup``, and our ``password_reset_confirm`` in front of Django's (it also lifts a
sign-in lockout). No ``app_name``: Django's views reverse these names without a namespace
(the reset e-mail's link, each form's next page), and ``LOGIN_URL = "login"`` names one.
"""

from django.urls import include, path

from matches.views import accounts

urlpatterns = [
    path("signup/", accounts.signup, name="signup"),
    path("reset/<uidb64>/<token>/", accounts.PasswordResetConfirm.as_view(),
         name="password_reset_confirm"),
    path("", include("django.contrib.auth.urls")),
]
