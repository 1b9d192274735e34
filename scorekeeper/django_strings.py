"""Django's own texts that we translate ourselves.

Django ships Ukrainian and Russian catalogues, but a few of their entries read oddly on
our pages (Ukrainian keeps "Email" in Latin letters, in the password-reset form's label
and in the message for an invalid address). Marked
here with gettext_noop, makemessages puts them in our catalogues, which Django consults
before its own (settings.LOCALE_PATHS); nothing imports this module.
"""

from django.utils.translation import gettext_noop

DJANGO_STRINGS = [
    gettext_noop("Email"),  # django.contrib.auth.forms.PasswordResetForm's label
    gettext_noop("Enter a valid email address."),  # EmailValidator's: "email" in Latin too
]
