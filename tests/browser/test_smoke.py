"""Proves the browser stack works: live server, Chromium, Playwright."""


def test_admin_login_page_opens_in_chromium(live_server, page):
    page.goto(live_server.url + "/admin/login/")

    assert "Log in" in page.title()
