"""The development e-mail backend: each message printed to the console as its reader
would read it.

Django's console backend prints the message as it would be sent, encoded: its
quoted-printable soft line breaks (``=`` at the end of a line) cut a password reset
link in two, and the half a newcomer copies opens "invalid link". This one prints the
headers that matter and the text body as written.
"""

from __future__ import annotations

from django.core.mail import EmailMessage
from django.core.mail.backends import console


class EmailBackend(console.EmailBackend):
    def write_message(self, message: EmailMessage) -> None:
        copies = "".join(f"{field}: {', '.join(addresses)}\n" for field, addresses
                         in (("Cc", message.cc), ("Bcc", message.bcc)) if addresses)
        self.stream.write(f"From: {message.from_email}\n"
                          f"To: {', '.join(message.to)}\n{copies}"
                          f"Subject: {message.subject}\n\n"
                          f"{message.body}\n")
        self.stream.write("-" * 79 + "\n")
