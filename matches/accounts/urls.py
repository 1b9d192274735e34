"""Account URLs, mounted at ``accounts/`` by scorekeeper/urls.py.

Django's own views (``django.contrib.auth.urls``: ``login``, ``logout``,
``password_change``, ``password_change_done``, ``password_reset``,
``password_reset_done``, ``password_reset_confirm``, ``password_reset_complete``) plus
our ``signup``, the account's settings (``notice_settings``: league e-mails on or off;
``account_email``: its e-mail address),
our ``password_change`` (its old password counted as a sign-in attempt), and our
``password_reset`` (limited per address and e-mail address) and
``password_reset_confirm`` (it also lifts a sign-in lockout) in front of Django's. No
``app_name``: Django's views reverse these names without a namespace (the reset
e-mail's link, each form's next page), and ``LOGIN_URL = "login"`` names one.
"""

from django.urls import include, path

from matches.accounts import views as accounts

urlpatterns = [
    path("signup/", accounts.signup, name="signup"),
    path("settings/", accounts.account_settings, name="notice_settings"),
    path("settings/email/", accounts.account_email, name="account_email"),
    path("password_change/", accounts.PasswordChange.as_view(), name="password_change"),
    path("password_reset/", accounts.PasswordReset.as_view(), name="password_reset"),
    path("reset/<uidb64>/<token>/", accounts.PasswordResetConfirm.as_view(),
         name="password_reset_confirm"),
    path("", include("django.contrib.auth.urls")),
]
