"""Drives zdr-host with the service's own SDK, tako-sdk 1.2.0, unchanged:
only base_url and the key are set. Every method that names an endpoint of
the spec is called; each answer is checked on the SDK's own parsed model,
and validated strictly against that model (pydantic strict mode, from the
answer's JSON text). Usage: drive_1_2_0.py HOST_URL KEY FILES_URL. Exits
non-zero on the first failure, saying which call and why."""

import json
import sys

import httpx
import tako
from tako import Tako
from tako.types import BetaGetFileUploadURLResponse, Results
from tako.types.beta import (
    FileConnectorCreateResponse,
    FileConnectorListResponse,
    FileRetrieveResponse,
    FileUpdateResponse,
)

HOST, KEY, FILES = sys.argv[1:4]
CSV = "month,region,sales\n2024-01,North,120\n2024-02,North,135\n2024-03,North,128\n2024-01,South,98\n2024-02,South,101\n2024-03,South,110\n"
client = Tako(api_key=KEY, base_url=HOST + "/api", max_retries=0)
done = []


def strict(model, raw):
    """The answer's JSON validates strictly against the SDK's model."""
    model.model_validate_json(raw.http_response.text, strict=True)
    return raw.parse()


def check(what, condition, detail=""):
    if not condition:
        raise SystemExit(f"FAIL {what}: {detail}")
    done.append(what)


# beta.get_file_upload_url, then the upload as a client posts it.
form = strict(
    BetaGetFileUploadURLResponse,
    client.beta.with_raw_response.get_file_upload_url(
        file_name="sales.csv", file_context="monthly sales", source="Finance", display_name="Sales"
    ),
)
check("beta.get_file_upload_url", form.file_id and form.key.startswith(form.file_id + "/"), form)
posted = httpx.post(form.url, data=form.fields, files={"file": ("sales.csv", CSV.encode(), "text/csv")})
check("the presigned upload", posted.status_code == 204, posted.text)

# beta.files.retrieve / update
file = strict(FileRetrieveResponse, client.beta.files.with_raw_response.retrieve(form.file_id))
check(
    "beta.files.retrieve",
    file.file_id == form.file_id
    and file.schema_.schema_id
    and file.schema_.display_name == "Sales"
    and file.file_context == "monthly sales"
    and file.source == "Finance"
    and file.last_updated_at is not None,
    file,
)
updated = strict(
    FileUpdateResponse,
    client.beta.files.with_raw_response.update(form.file_id, display_name="Sales 2024", source="Finance EU"),
)
check(
    "beta.files.update",
    updated.schema_.display_name == "Sales 2024"
    and updated.source == "Finance EU"
    and updated.file_context == "monthly sales",
    updated,
)

# beta.visualize.create: file ids as strings and as objects, inline CSV,
# a card type, output settings, and the spec's model (1.2.0 has no model
# argument: it goes as an extra body member).
by_id = strict(Results, client.beta.visualize.with_raw_response.create(file_ids=[form.file_id], query="sales over time"))
cards = by_id.outputs.knowledge_cards
check("beta.visualize.create (file_ids)", cards and cards[0].card_type == "timeseries", by_id)
check("a card's relevance", cards[0].relevance in ("High", "Medium", "Low"), cards[0])
by_object = strict(
    Results,
    client.beta.visualize.with_raw_response.create(
        file_ids=[{"file_id": form.file_id, "file_context": "monthly sales"}], viz_component_type="bar"
    ),
)
check(
    "beta.visualize.create (file_ids objects, viz_component_type)",
    [c.card_type for c in by_object.outputs.knowledge_cards] == ["bar"],
    by_object,
)
inline = strict(
    Results,
    client.beta.visualize.with_raw_response.create(
        csv=["region,sales\nNorth,120\nSouth,98\nEast,77\n"],
        output_settings={"knowledge_card_settings": {"image_dark_mode": True}},
        extra_body={"model": "o3"},
    ),
)
first = inline.outputs.knowledge_cards[0]
check(
    "beta.visualize.create (csv, output_settings, model)",
    first.visualization_data["viz_config"].get("dark_mode") is True,
    first,
)

# The six card types the SDK names beyond the spec's 13, each asked for by
# name from a CSV that suits it, and each drawn by the embed from its
# visualization_data, as the widget posts it (inline CSV cards are never
# stored, so there is no image of them to fetch).
SIX = {
    "area_timeseries": CSV,
    "stacked_area_timeseries": CSV,
    "treemap": "region,country,gdp\nEurope,Germany,4.5\nEurope,France,3.0\nAsia,Japan,4.2\nAsia,India,3.6\nAmericas,Brazil,2.2\n",
    "top_level_metric": "month,sales\n2024-01,120\n2024-02,135\n2024-03,128\n",
    "map": "city,lat,lon\nParis,48.86,2.35\nTokyo,35.68,139.69\nLima,-12.05,-77.04\n",
    "bubble_map": "city,lat,lon,population\nParis,48.86,2.35,2.1\nTokyo,35.68,139.69,14.0\nLima,-12.05,-77.04,10.0\n",
}
for card_type, csv in SIX.items():
    made = strict(Results, client.beta.visualize.with_raw_response.create(csv=[csv], viz_component_type=card_type))
    made_cards = made.outputs.knowledge_cards
    check(f"beta.visualize.create ({card_type})", [c.card_type for c in made_cards] == [card_type], made)
    card = made_cards[0]
    page = httpx.post(
        f"{HOST}/embed/{card.card_id}/",
        data={"visualization_data": json.dumps(card.visualization_data)},
    )
    check(f"the embed draws a {card_type} card", page.status_code == 200 and "<svg" in page.text, page.text[:300])

# images.retrieve: no key, PNG.
picture = client.images.retrieve(cards[0].card_id, width=400, height=300)
check("images.retrieve", picture.read()[:8] == b"\x89PNG\r\n\x1a\n", picture.headers)
check("image_url without a key", httpx.get(cards[0].image_url).status_code == 200)
check("webpage_url without a key", httpx.get(cards[0].webpage_url).status_code == 200)

# An inline card is kept nowhere, its picture included: the SDK's image
# call gets 410 Gone, and the body says why.
try:
    client.images.retrieve(first.card_id)
    check("an inline card's image is gone", False, "no error")
except tako.APIStatusError as error:
    check(
        "an inline card's image is gone (410, card_not_kept)",
        error.status_code == 410 and "card_not_kept" in error.response.text,
        error,
    )
check("an inline card's webpage_url is gone", httpx.get(first.webpage_url).status_code == 410)

# With image_ttl_minutes, the SDK unchanged (extra_body), the inline card's
# picture (not its data) is kept for that long: images.retrieve gets it.
previewed = strict(
    Results,
    client.beta.visualize.with_raw_response.create(
        csv=["region,sales\nNorth,120\nSouth,98\nEast,77\n"],
        extra_body={"image_ttl_minutes": 5},
    ),
)
preview = previewed.outputs.knowledge_cards[0]
picture = client.images.retrieve(preview.card_id)
check("images.retrieve of a preview (image_ttl_minutes)", picture.read()[:8] == b"\x89PNG\r\n\x1a\n", picture.headers)
check("a preview's webpage_url", httpx.get(preview.webpage_url).status_code == 200)
try:
    client.beta.visualize.create(csv=["region,sales\nNorth,1\n"], extra_body={"image_ttl_minutes": 2000})
    check("image_ttl_minutes past a day is refused", False, "no error")
except tako.BadRequestError as error:
    check("image_ttl_minutes past a day is refused (400)", "image_ttl_minutes" in error.response.text, error)

# beta.file_connector.create and .list
connected = strict(
    FileConnectorCreateResponse,
    client.beta.file_connector.with_raw_response.create(
        file_url=FILES + "/weather.csv", file_context="daily weather", source="NOAA", display_name="Weather"
    ),
)
check(
    "beta.file_connector.create",
    connected.id and connected.metadata.id == connected.id and connected.metadata.source == "NOAA",
    connected,
)
listed = strict(FileConnectorListResponse, client.beta.file_connector.with_raw_response.list())
check("beta.file_connector.list", {f.id for f in listed.files} >= {connected.id, form.file_id}, listed)
one = strict(FileConnectorListResponse, client.beta.file_connector.with_raw_response.list(file_id=connected.id))
check("beta.file_connector.list (file_id)", [f.id for f in one.files] == [connected.id], one)

# search.create: the built-in datasets as the service names them, the
# key's own data, the web (which this host has not), objects, effort and a
# language code; and a question nothing answers: no cards, no error.
found = strict(
    Results,
    client.search.with_raw_response.create(
        inputs={"text": "life expectancy and fertility"},
        source_indexes=["tako"],
        search_effort="fast",
        locale="en",
        country_code="JP",
    ),
)
check("search.create (tako)", found.outputs.knowledge_cards, found)
check(
    "a built-in card names the index tako",
    found.outputs.knowledge_cards[0].source_indexes == ["tako"]
    and found.outputs.knowledge_cards[0].sources[0].source_index == "tako",
    found.outputs.knowledge_cards[0],
)
mine = strict(
    Results,
    client.search.with_raw_response.create(inputs={"text": "weather"}, source_indexes=["connected_data"]),
)
check("search.create (connected_data)", mine.outputs.knowledge_cards, mine)
deep = strict(
    Results,
    client.search.with_raw_response.create(
        inputs={"text": "stock price"},
        source_indexes=["web", "tako_deep_v2", {"index_type": "tako", "segment_id": "markets"}],
        search_effort="deep",
    ),
)
check("search.create (web, tako_deep_v2, a segment)", deep.outputs.knowledge_cards, deep)
nothing = strict(
    Results, client.search.with_raw_response.create(inputs={"text": "zebra quasar xylophone"}, source_indexes=["tako"])
)
check("search.create (nothing relevant)", nothing.outputs.knowledge_cards == [], nothing)

# beta.files.delete: the file, its cleaned table, its cards and their
# images are gone.
client.beta.files.delete(form.file_id)
try:
    client.beta.files.retrieve(form.file_id)
    check("beta.files.delete", False, "the file answers after its delete")
except tako.NotFoundError as error:
    check("beta.files.delete", error.body["error_type"] == "NOT_FOUND", error.body)
check("a deleted file's card image", httpx.get(cards[0].image_url).status_code == 404)

# Errors: the SDK's own exceptions.
try:
    client.beta.visualize.create(file_ids=[])
    check("an error", False, "an empty request was answered")
except tako.BadRequestError as error:
    check("an error", error.body["error_type"] == "BAD_REQUEST" and error.body["error_message"], error.body)
try:
    Tako(api_key="not-a-key-of-this-host", base_url=HOST + "/api", max_retries=0).beta.files.retrieve("file_1")
    check("an unknown key", False, "answered")
except tako.AuthenticationError as error:
    check("an unknown key", error.body["error_type"] == "AUTHENTICATION_ERROR", error.body)

print("tako-sdk 1.2.0: " + "; ".join(done))
