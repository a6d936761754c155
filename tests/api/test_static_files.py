"""The client's files go out gzipped, with ETags, and under a version that caches for good."""

from __future__ import annotations

import re

import httpx


async def test_a_client_file_is_gzipped_and_revalidated_by_its_etag(
    http: httpx.AsyncClient,
) -> None:
    plain = await http.get("/static/tiles.js", headers={"Accept-Encoding": "identity"})
    packed = await http.get("/static/tiles.js", headers={"Accept-Encoding": "gzip"})
    assert plain.status_code == packed.status_code == 200
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len(plain.content) / 2
    assert packed.content == plain.content  # httpx unpacks it
    assert plain.headers["content-type"].startswith("text/javascript")
    assert plain.headers["cache-control"] == "no-cache"
    etag = plain.headers["etag"]
    again = await http.get("/static/tiles.js", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""


async def test_pages_link_the_versioned_client_which_caches_for_good(
    http: httpx.AsyncClient,
) -> None:
    page = await http.get("/rooms/abc123", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip"
    assert page.headers["cache-control"] == "no-cache"
    links = re.findall(r'"(/static/[^"]+)"', page.text)
    assert links and all(re.match(r"/static/v/[0-9a-f]{12}/", link) for link in links)
    script = next(link for link in links if link.endswith("table.js"))
    module = await http.get(script)
    assert module.status_code == 200 and "immutable" in module.headers["cache-control"]
    assert module.content == (await http.get("/static/table.js")).content
    again = await http.get("/rooms/abc123", headers={"If-None-Match": page.headers["etag"]})
    assert again.status_code == 304


async def test_nothing_outside_the_client_is_served(http: httpx.AsyncClient) -> None:
    for path in ("/static/../pyproject.toml", "/static/v/abc/%2e%2e/pyproject.toml"):
        answer = await http.get(path)
        assert answer.status_code == 404, path


async def test_the_table_page_and_all_it_loads_stay_under_150_kb_compressed(
    http: httpx.AsyncClient,
) -> None:
    gzip_only = {"Accept-Encoding": "gzip"}
    page = await http.get("/rooms/abc123", headers=gzip_only)
    total = int(page.headers["content-length"])
    links = set(re.findall(r'"(/static/v/[^"]+)"', page.text))
    seen: set[str] = set()
    while links:
        link = links.pop()
        seen.add(link)
        answer = await http.get(link, headers=gzip_only)
        assert answer.status_code == 200, link
        total += int(answer.headers["content-length"])
        base = link.rsplit("/", 1)[0]
        for imported in re.findall(r'from "\./([^"]+)"', answer.text):
            if f"{base}/{imported}" not in seen:
                links.add(f"{base}/{imported}")
    assert any(link.endswith("tile_glyphs.js") for link in seen), "the tile outlines are counted"
    # The largest catalogue: the page loads one.
    catalogues = [
        await http.get(f"/static/i18n/{language}.json", headers=gzip_only)
        for language in ("en", "ms", "zh-Hant", "zh-Hans")
    ]
    total += max(int(answer.headers["content-length"]) for answer in catalogues)
    assert total < 150 * 1024, total
