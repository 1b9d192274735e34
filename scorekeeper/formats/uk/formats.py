"""Ukrainian dates: Django's own formats (SHORT_DATE_FORMAT "d.m.Y", SHORT_DATETIME_FORMAT
"d.m.Y H:i") plus our own names, which every language defines (see ../en/formats.py)."""

DAY_TIME_FORMAT = "d.m H:i"  # 30.11 18:05
DAY_TIME_SECONDS_FORMAT = "d.m H:i:s"  # 30.11 18:05:09
WEEKDAY_DATE_FORMAT = "D, d.m"  # Пн, 30.11
LONG_WEEKDAY_DATE_FORMAT = "l, j E Y"  # понеділок, 30 листопада 2026
