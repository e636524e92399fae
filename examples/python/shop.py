"""A Python shop on the checkout gateway (docs/gateway.md), in one file, standard library only:

    GATEWAY_URL=http://127.0.0.1:8080 GATEWAY_API_KEY=... SHOP_WEBHOOK_SECRET=whsec_... \
    PORT=8000 python3 examples/python/shop.py

GET /pay?order=42&amount=1500.00  creates the invoice at the gateway, renders the checkout
POST /webhook                     the gateway's signed change of an invoice: verified, applied once
GET /orders                       the shop's books (JSON)
"""
import base64, hashlib, hmac, html, json, os, re, threading, time, urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

GATEWAY = os.environ.get("GATEWAY_URL", "http://127.0.0.1:8080").rstrip("/")
KEY = base64.b64decode(os.environ.get("SHOP_WEBHOOK_SECRET", "whsec_")[6:])
books = {"seen": set(), "orders": {}}  # a real shop keeps these in its database
lock = threading.Lock()


class Shop(BaseHTTPRequestHandler):
    def answer(self, status, body, kind="application/json"):
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == "/orders":
            with lock:
                return self.answer(200, books["orders"])
        if url.path != "/pay":
            return self.answer(404, {"error": "not found"})
        query = {name: values[0] for name, values in parse_qs(url.query).items()}
        order = re.sub(r"[^A-Za-z0-9_-]", "", query.get("order", ""))
        amount = query.get("amount", "")
        if not order or not re.fullmatch(r"\d{1,9}(\.\d{1,2})?", amount):
            return self.answer(400, {"error": "order and amount (decimal text) are required"})
        request = urllib.request.Request(
            f"{GATEWAY}/v1/invoices",
            data=json.dumps({"type": "in", "amount": amount, "currency": "RUB", "internalId": order}).encode(),
            headers={"Authorization": f"Bearer {os.environ.get('GATEWAY_API_KEY', '')}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                created = json.load(response)
        except OSError:
            return self.answer(502, {"error": "the gateway did not create the invoice"})
        invoice, token, origin = (html.escape(created["invoice"]["id"]), html.escape(created["checkoutToken"]), html.escape(GATEWAY))
        self.answer(200, f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>Pay for order {order}</title><script type="module" src="{origin}/element/merchant-checkout.js"></script></head>
<body><main><h1>Order {order}</h1>
<merchant-checkout invoice-id="{invoice}" endpoint="{origin}/checkout-api" checkout-token="{token}"></merchant-checkout>
</main></body></html>""", "text/html; charset=utf-8")

    def do_POST(self):
        if urlsplit(self.path).path != "/webhook":
            return self.answer(404, {"error": "not found"})
        # Standard Webhooks: HMAC-SHA256 of "{id}.{timestamp}.{body}" with the secret after whsec_.
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        webhook_id, timestamp = self.headers.get("webhook-id", ""), self.headers.get("webhook-timestamp", "0")
        expected = "v1," + base64.b64encode(hmac.new(KEY, f"{webhook_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()).decode()
        signed = any(hmac.compare_digest(expected, given) for given in self.headers.get("webhook-signature", "").split())
        if not signed or not timestamp.isdigit() or abs(time.time() - int(timestamp)) > 300:
            return self.answer(401, {"error": "bad signature"})
        with lock:  # each change once, by its webhook-id, whatever instance or retry delivers it
            duplicate = webhook_id in books["seen"]
            if not duplicate:
                event = json.loads(body)
                change, now = event["data"], event["data"]["current"]
                # The money the shop has now for this order: what the service settled while it is paid.
                credited = (now.get("receivedSumFromTaker") or now["sum"]) if now["status"] == "paid" else "0"
                order = books["orders"].setdefault(change.get("internalId") or change["invoiceId"], {"changes": []})
                order.update(status=now["status"], credited=credited)
                order["changes"].append({"id": webhook_id, "type": event["type"], "credited": credited})
                books["seen"].add(webhook_id)
        self.answer(200, {"ok": True, "duplicate": duplicate})

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8000"))), Shop)
    print(f"shop on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
