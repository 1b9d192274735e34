"""English dates as the pages always wrote them: "30 Nov 2026, 18:05".

Django looks a format name up here first (settings.FORMAT_MODULE_PATH), then in its own
locale. Besides Django's names, the pages use a few of our own (DAY_TIME_FORMAT …):
every language in settings.LANGUAGES defines them (tests/scorekeeper/test_languages.py
checks), since Django would read an unknown name as a format string of its own letters.
"""

SHORT_DATE_FORMAT = "j M Y"  # 30 Nov 2026
SHORT_DATETIME_FORMAT = "j M Y, H:i"  # 30 Nov 2026, 18:05
DAY_TIME_FORMAT = "j M H:i"  # 30 Nov 18:05
DAY_TIME_SECONDS_FORMAT = "j M H:i:s"  # 30 Nov 18:05:09
WEEKDAY_DATE_FORMAT = "D j M"  # Mon 30 Nov
LONG_WEEKDAY_DATE_FORMAT = "l j M Y"  # Monday 30 Nov 2026

# A date typed by hand (a browser without a date picker; the picker sends YYYY-MM-DD,
# which Django always reads) is read day first, as the pages write dates and as the
# fixtures spreadsheet reads them (leagues.files): 04/01/2027 is 4 January. Django's
# English reads it month first, 1 April, with nothing said. The year in full, as the
# spreadsheet wants it. Ukrainian and Russian read day first already (14.12.2026).
DATE_INPUT_FORMATS = ["%d/%m/%Y", "%d.%m.%Y", "%d %b %Y", "%d %B %Y"]
