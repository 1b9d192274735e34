"""Account URLs, mounted at ``accounts/`` by scorekeeper/urls.py.

Django's own views (``django.contrib.auth.urls``: ``login``, ``logout``,
``password_change``, ``password_change_done``, ``password_reset``,
``password_reset_done``, ``password_reset_confirm``, ``password_reset_complete``) plus
our ``signup``, and our ``password_reset_confirm`` in front of Django's (it also lifts a
sign-in lockout), ``login`` and ``logout`` (they drop a ``next`` too long to send back).
No ``app_name``: Django's views reverse these names without a namespace (the reset
e-mail's link, each form's next page), and ``LOGIN_URL = "login"`` names one.
"""

from django.urls import include, path

from matches.views import accounts

urlpatterns = [
    path("signup/", accounts.signup, name="signup"),
    # Django's, with a next page too long to send back dropped
    path("login/", accounts.SignIn.as_view(), name="login"),
    path("logout/", accounts.SignOut.as_view(), name="logout"),
    path("reset/<uidb64>/<token>/", accounts.PasswordResetConfirm.as_view(),
         name="password_reset_confirm"),
    path("", include("django.contrib.auth.urls")),
]
