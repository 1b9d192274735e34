from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = "Matches"

    def ready(self) -> None:
        # the site's own system checks (production mail), which belong to no app
        # each concern that closes a match to writes registers its check with scoring
        # history keeps the ratings that scoring's results feed (results_changed)
        # a cup's bracket follows its ties' fixtures (the leagues' fixture_moved)
        # a phone's matches become the account's that signs in on it (user_logged_in)
        # a member who leaves a club: the phones that started its matches stop (member_left)
        from matches.cups import services as cups_services  # noqa: F401
        from matches.history import services  # noqa: F401
        from matches.leagues import selectors  # noqa: F401
        from matches.scoring import access as scoring_access  # noqa: F401
        from matches.scoring.services import play as scoring_play  # noqa: F401
        from scorekeeper import checks  # noqa: F401
