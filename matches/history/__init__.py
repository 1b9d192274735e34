"""What has been played: the match history, players' pages, ratings."""
