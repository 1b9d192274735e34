from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = "Matches"

    def ready(self) -> None:
        # the site's own system checks (production mail), which belong to no app
        from scorekeeper import checks  # noqa: F401
