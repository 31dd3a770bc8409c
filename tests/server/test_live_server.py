"""A real ``saikoro serve`` on loopback: a Discord bot's request sequence and a load test."""

from __future__ import annotations

import asyncio
import re
from urllib.parse import quote

import httpx


class BCDiceBotClient:
    """What a Discord BCDice bot does with a BCDice-API server (no saikoro knowledge).

    On start it checks the version and loads the game system list; when a channel picks
    a system it loads that system's info and keeps ``command_pattern``; for each chat
    message matching the pattern (case-insensitively) it calls
    ``GET /v2/game_system/{id}/roll?command=<urlencoded message>`` and posts ``text``.
    """

    def __init__(self, base_url: str) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=10.0)
        self.systems: dict[str, str] = {}
        self.pattern: re.Pattern[str] | None = None
        self.system_id = "DiceBot"

    def start(self) -> str:
        version = self.http.get("/v2/version")
        version.raise_for_status()
        api = version.json()["api"]
        if int(api.split(".")[0]) < 2:
            raise RuntimeError("this bot needs BCDice-API v2")
        listing = self.http.get("/v2/game_system").json()["game_system"]
        self.systems = {entry["id"]: entry["name"] for entry in listing}
        return api

    def use_system(self, system_id: str) -> str:
        info = self.http.get(f"/v2/game_system/{system_id}")
        info.raise_for_status()
        body = info.json()
        assert body["ok"]
        self.system_id = system_id
        self.pattern = re.compile(body["command_pattern"], re.IGNORECASE)
        return body["help_message"]

    def on_message(self, message: str) -> dict | None:
        assert self.pattern is not None
        if not self.pattern.search(message):
            return None
        response = self.http.get(f"/v2/game_system/{self.system_id}/roll?command={quote(message)}")
        if response.status_code == 400:
            return None
        response.raise_for_status()
        return response.json()


def test_discord_bot_request_sequence(live_server: str) -> None:
    bot = BCDiceBotClient(live_server)
    assert bot.start().startswith("3.")  # BCDice-API 3.0.0
    assert bot.systems["LittleWorld"] == "帽子世界TRPG"
    assert bot.systems["UnmeiD100"] == "運命判定d100"

    help_message = bot.use_system("LittleWorld")
    assert help_message
    assert bot.on_message("今日はいい天気") is None  # chat, not a command
    reply = bot.on_message("2D6>=7 探索")
    assert reply is not None and reply["ok"] is True
    assert len(reply["rands"]) == 2 and all(r["sides"] == 6 for r in reply["rands"])
    assert reply["success"] is (sum(r["value"] for r in reply["rands"]) >= 7)
    check = bot.on_message("LW3>=10 登攀")
    assert check is not None and check["ok"] and "＞" in check["text"]

    bot.use_system("UnmeiD100")
    fate = bot.on_message("FATE10")
    assert fate is not None and fate["ok"] is True
    assert [r["sides"] for r in fate["rands"]] in ([100], [10, 10])
    assert bot.on_message("S1D100<=50")["secret"] is True


def test_live_server_details(live_server: str) -> None:
    admin = httpx.get(f"{live_server}/v2/admin").json()
    assert admin == {"name": "テスト管理人", "url": "", "email": "gm@example.org"}
    missing = httpx.get(f"{live_server}/v2/nothing")
    assert missing.status_code == 404 and missing.json() == {"ok": False, "reason": "not found"}
    assert missing.headers["access-control-allow-origin"] == "*"
    form = httpx.post(f"{live_server}/v2/game_system/DiceBot/roll", data={"command": "1D6"})
    assert form.status_code == 200 and form.json()["rands"][0]["sides"] == 6


async def _load(base_url: str, clients: int, requests_each: int) -> list[str]:
    """``clients`` users, each from its own loopback address (the server limits per address).

    Each client behaves as a well-made HTTP/1.1 client does with keep-alive: it drops an
    idle connection after one second, well before the server's five
    (``ConnectionRules.keep_alive``), and a GET sent on a kept-alive connection that the
    server closed before any answer is sent again once on a new connection (RFC 9112
    §9.3.1: the server may close an idle connection at the moment the client reuses it;
    on a machine busy enough to stall either process for seconds that race was seen in
    the full suite). A request that still gets no answer, or any answer but a good
    200, is an error. The clients are made before any request is sent, so that making
    one (it loads a TLS context) does not stall the others' connections in the middle.
    """
    errors: list[str] = []
    commands = ["2D6>=7", "LW3>=10", "1D100<=50", "3B6", "LWA3-2"]
    limits = httpx.Limits(keepalive_expiry=1.0)

    def client(number: int) -> httpx.AsyncClient:
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.2.{number + 1}", limits=limits)
        return httpx.AsyncClient(base_url=base_url, transport=transport, timeout=60.0)

    async def roll(http: httpx.AsyncClient, command: str) -> httpx.Response:
        url, params = "/v2/game_system/LittleWorld/roll", {"command": command}
        try:
            return await http.get(url, params=params)
        except httpx.RemoteProtocolError:  # closed before any answer: once more, anew
            return await http.get(url, params=params)

    async def requests(http: httpx.AsyncClient, number: int) -> None:
        async with http:
            for i in range(requests_each):
                command = commands[(number + i) % len(commands)]
                try:
                    response = await roll(http, command)
                    if response.status_code != 200 or response.json()["ok"] is not True:
                        errors.append(f"{command}: {response.status_code} {response.text[:100]}")
                except httpx.HTTPError as error:
                    errors.append(f"{command}: {error!r}")

    https = [client(n) for n in range(clients)]
    await asyncio.gather(*(requests(http, n) for n, http in enumerate(https)))
    return errors


def test_load_100_concurrent_clients(live_server: str) -> None:
    # How fast is benchmarks/' question; here every request of the 100 clients is answered.
    errors = asyncio.run(_load(live_server, clients=100, requests_each=5))
    assert errors == []
