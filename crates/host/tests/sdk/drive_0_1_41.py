"""Drives zdr-host with the service's earlier SDK, tako-sdk 0.1.41,
unchanged: only server_url and the key are set (the sync client with the
URL as its own default is written, ending in a slash, so that its requests
begin with //api; the async client without). Its models validate every
answer (each card's eleven members, index names of its own list). Usage:
drive_0_1_41.py HOST_URL KEY FILES_URL. Exits non-zero on the first
failure, saying which call and why."""

import asyncio
import os
import sys
import tempfile

from tako.client import AsyncTakoClient, TakoClient
from tako.types.common.exceptions import BadRequestException
from tako.types.knowledge_search.types import KnowledgeSearchSourceIndex

HOST, KEY, FILES = sys.argv[1:4]
CSV = "month,region,sales\n2024-01,North,120\n2024-02,North,135\n2024-03,North,128\n2024-01,South,98\n2024-02,South,101\n2024-03,South,110\n"
client = TakoClient(api_key=KEY, server_url=HOST + "/")
done = []


def check(what, condition, detail=""):
    if not condition:
        raise SystemExit(f"FAIL {what}: {detail}")
    done.append(what)


# knowledge_search with its defaults: ["tako"], effort fast.
found = client.knowledge_search("life expectancy and fertility")
check("knowledge_search", found.outputs and found.outputs.knowledge_cards, found)
card = found.outputs.knowledge_cards[0]
check("a card's index names", card.source_indexes == [KnowledgeSearchSourceIndex.TAKO], card)
nothing = client.knowledge_search("zebra quasar xylophone")
check("knowledge_search (nothing relevant)", nothing.outputs.knowledge_cards == [], nothing)
web = client.knowledge_search("stock price", source_indexes=[KnowledgeSearchSourceIndex.WEB, KnowledgeSearchSourceIndex.TAKO_DEEP_V2])
check("knowledge_search (web, tako_deep_v2)", web.outputs.knowledge_cards, web)

# get_image: no key, whatever it answers is returned.
picture = client.get_image(card.card_id)
check("get_image", picture[:8] == b"\x89PNG\r\n\x1a\n", picture[:60])

# beta_upload_file: the presigned form, then the file id.
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "sales.csv")
    with open(path, "w") as f:
        f.write(CSV)
    file_id = client.beta_upload_file(path, file_context="monthly sales", source="Finance")
check("beta_upload_file", file_id.startswith("file_"), file_id)
info = client.beta_file_info(file_id)
check("beta_file_info", info["file_id"] == file_id and info["source"] == "Finance", info)
updated = client.beta_update_file(file_id, display_name="Sales 2024")
check("beta_update_file", updated["schema"]["display_name"] == "Sales 2024", updated)

# beta_visualize (file ids sent as objects) and beta_visualize_files.
cards = client.beta_visualize(file_id=file_id, query="sales over time", model="o3")
check("beta_visualize", cards.outputs.knowledge_cards[0].card_type == "timeseries", cards)
check("a card of the key's own data names no index", cards.outputs.knowledge_cards[0].source_indexes == [], cards)
bars = client.beta_visualize(file_id=file_id, viz_component_type="bar")
check("beta_visualize (viz_component_type)", [c.card_type for c in bars.outputs.knowledge_cards] == ["bar"], bars)
listed = client.beta_visualize_files([file_id], query="share of sales by region")
check("beta_visualize_files", listed.outputs.knowledge_cards, listed)

# beta_file_connector
connected = client.beta_file_connector(FILES + "/weather.csv")
check("beta_file_connector", connected["id"] and "connected" in connected["message"], connected)

# Errors arrive as its own exceptions.
try:
    client.beta_visualize_files([])
    check("an error", False, "an empty request was answered")
except BadRequestException as error:
    check("an error", str(error), error)

# beta_delete_file
check("beta_delete_file", client.beta_delete_file(file_id) is True)
check("a deleted file's image", client.get_image(cards.outputs.knowledge_cards[0].card_id)[:8] != b"\x89PNG\r\n\x1a\n")


async def asynchronous():
    # The async client posts knowledge_search/ with a final slash.
    async_client = AsyncTakoClient(api_key=KEY, server_url=HOST)
    found = await async_client.knowledge_search("life expectancy and fertility")
    check("async knowledge_search", found.outputs and found.outputs.knowledge_cards, found)
    picture = await async_client.get_image(found.outputs.knowledge_cards[0].card_id)
    check("async get_image", picture[:8] == b"\x89PNG\r\n\x1a\n", picture[:60])
    cards = await async_client.beta_visualize(file_id=connected["id"], query="weather over time")
    check("async beta_visualize", cards.outputs.knowledge_cards, cards)


asyncio.run(asynchronous())
print("tako-sdk 0.1.41: " + "; ".join(done))
