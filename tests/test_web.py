"""The web app's placeholder home page (the kid's app replaces it)."""

from teach.web import create_app


def test_home_page_greets_in_chinese_and_english():
    client = create_app({"TESTING": True}).test_client()
    page = client.get("/").get_data(as_text=True)
    assert "围棋小课堂" in page and "Black Cat Police" in page


def test_unknown_page_is_a_404_not_a_crash():
    client = create_app({"TESTING": True}).test_client()
    assert client.get("/no-such-page").status_code == 404
