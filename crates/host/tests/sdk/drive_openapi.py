"""The spec's three flows (4.17) through a client generated from zdr-host's own
OpenAPI document: fetched from /api/openapi.json (no key), validated by
openapi-spec-validator, turned into a Python package by openapi-python-client,
imported, and called against the host. The generated models parse every
answer: a member the document says is required and the answer lacks, or an
answer of a status the document does not give, fails the run.

usage: python drive_openapi.py HOST KEY FILES WORKDIR
"""

import importlib
import json
import subprocess
import sys
from pathlib import Path

import httpx

HOST, KEY, FILES, WORK = sys.argv[1:5]
BIN = Path(sys.executable).parent
CSV = "month,region,sales\n2024-01,North,120\n2024-02,North,135\n2024-01,South,98\n2024-02,South,101\n"
done = []


def check(what, condition, detail=""):
    if not condition:
        raise SystemExit(f"FAIL {what}: {detail}")
    done.append(what)


# The document: no key, cacheable, valid OpenAPI 3.1.
answer = httpx.get(f"{HOST}/api/openapi.json")
check("GET /api/openapi.json without a key", answer.status_code == 200, answer.text[:300])
check("the document may be cached", "max-age" in answer.headers.get("cache-control", ""), answer.headers)
document = Path(WORK) / "openapi.json"
document.write_text(answer.text)
check("it is OpenAPI 3.1", answer.json()["openapi"].startswith("3.1"))
validated = subprocess.run([BIN / "openapi-spec-validator", document], capture_output=True, text=True)
check("openapi-spec-validator finds it valid", validated.returncode == 0, validated.stdout + validated.stderr)

# The client, generated as a team would make one.
config = Path(WORK) / "generator.yaml"
config.write_text("post_hooks: []\n")
generated = subprocess.run(
    [BIN / "openapi-python-client", "generate", "--path", document, "--meta", "none", "--config", config],
    cwd=WORK,
    capture_output=True,
    text=True,
)
check("openapi-python-client generates a client", generated.returncode == 0, generated.stdout + generated.stderr)
sys.path.insert(0, WORK)
client_module = importlib.import_module("zdr_host_client")
models = importlib.import_module("zdr_host_client.models")
from zdr_host_client.api.embed import embed_card  # noqa: E402
from zdr_host_client.api.files import connect_file, get_file, get_file_upload_url, post_upload  # noqa: E402
from zdr_host_client.api.visualize import visualize  # noqa: E402
from zdr_host_client.types import File  # noqa: E402

client = client_module.AuthenticatedClient(base_url=HOST, token=KEY, auth_header_name="X-API-Key", prefix="")


def parsed(what, response, model):
    """The answer, 200 and parsed by the generated model."""
    check(what, response.status_code == 200 and isinstance(response.parsed, model), f"{response.status_code} {response.content[:400]!r}")
    return response.parsed


def cards_of(what, body):
    results = parsed(what, visualize.sync_detailed(client=client, body=body), models.Results)
    cards = results.outputs.knowledge_cards
    check(f"{what}: cards", len(cards) > 0, results)
    return cards


# Flow 1: a local file, through the presigned upload.
form = parsed(
    "flow 1: get_file_upload_url",
    get_file_upload_url.sync_detailed(client=client, file_name="sales.csv", file_context="monthly sales"),
    models.FileUploadUrl,
)
fields = form.fields.additional_properties
if form.url.endswith("/upload/"):
    upload = models.UploadForm.from_dict({**fields, "file": b""})
    upload.file = File(payload=CSV.encode(), file_name="sales.csv")
    posted = post_upload.sync_detailed(client=client, body=upload)
else:
    # The form is the bucket's own: posted there, as the spec says.
    posted = httpx.post(form.url, data=fields, files={"file": ("sales.csv", CSV.encode())})
check("flow 1: the file posted with the form", posted.status_code in (200, 201, 204), getattr(posted, "content", b"")[:300])
file = parsed("flow 1: get_file", get_file.sync_detailed(form.file_id, client=client), models.DatasetFile)
check("flow 1: the file's context", file.file_context == "monthly sales", file)
cards_of("flow 1: visualize by file_ids", models.VisualizeBody(file_ids=[form.file_id], query="sales by region"))

# Flow 2: a hosted file, through the file connector.
connected = parsed(
    "flow 2: connect_file",
    connect_file.sync_detailed(client=client, body=models.ConnectBody(file_url=f"{FILES}/weather.csv", file_context="daily weather")),
    models.FileConnectorCreated,
)
cards_of("flow 2: visualize the connected file", models.VisualizeBody(file_ids=[connected.id]))

# Flow 3: zero data retention: visualize inline CSV, then the embed.
card = cards_of("flow 3: visualize inline CSV", models.VisualizeBody(csv=[CSV]))[0]
data = card.visualization_data.to_dict()
check("flow 3: visualization_data has viz_config and data", "viz_config" in data and "data" in data, data)
page = embed_card.sync_detailed(card.card_id, client=client, body=models.EmbedForm(visualization_data=json.dumps(data)))
check("flow 3: the embed draws the card", page.status_code == 200 and b"<svg" in page.content, page.content[:300])
check("flow 3: the embed keeps nothing", "no-store" in page.headers.get("cache-control", ""), page.headers)

# The documented errors parse too.
missing = visualize.sync_detailed(client=client, body=models.VisualizeBody())
check("an invalid request answers the documented Error", missing.status_code == 400 and isinstance(missing.parsed, models.Error), missing.content[:300])
check("its param", missing.parsed.error.param == "csv", missing.parsed)
nobody = client_module.Client(base_url=HOST)
unauthorized = visualize.sync_detailed(client=nobody, body=models.VisualizeBody(csv=[CSV]))
check("no key answers the documented 401 Error", unauthorized.status_code == 401 and isinstance(unauthorized.parsed, models.Error), unauthorized.content[:300])

print("openapi client: " + "; ".join(done))
