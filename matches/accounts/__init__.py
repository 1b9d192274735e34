"""Accounts: sign-up, sign-in lockouts, the account pages' URLs."""
