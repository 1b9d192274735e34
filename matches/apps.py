from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = "Matches"

    def ready(self) -> None:
        # the site's own system checks (production mail), which belong to no app
        # each concern that closes a match to writes registers its check with scoring
        # history keeps the ratings that scoring's results feed (results_changed)
        from matches.history import services  # noqa: F401
        from matches.leagues import selectors  # noqa: F401
        from scorekeeper import checks  # noqa: F401
