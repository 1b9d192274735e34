"""Clubs: their members and roles, invitations, players."""
