<?php
// A PHP shop on the checkout gateway (docs/gateway.md), in one file, with nothing but php-cli:
//   GATEWAY_URL=http://127.0.0.1:8080 GATEWAY_API_KEY=… SHOP_WEBHOOK_SECRET=whsec_… \
//   PHP_CLI_SERVER_WORKERS=4 php -S 127.0.0.1:8000 examples/php/shop.php
// (workers: the gateway may post a webhook while a page is being made; use php-fpm in production)
// GET /pay?order=42&amount=1500.00  creates the invoice at the gateway, renders the checkout
// POST /webhook                     the gateway's signed change of an invoice: verified, applied once
// GET /orders                       the shop's books (JSON)
$gateway = rtrim(getenv('GATEWAY_URL') ?: 'http://127.0.0.1:8080', '/');
$books = getenv('SHOP_BOOKS') ?: sys_get_temp_dir() . '/php-shop-books.json';
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);

function answer(int $status, $body): void {
    http_response_code($status);
    header('Content-Type: application/json');
    echo json_encode($body);
}

if ($path === '/pay') {
    $order = preg_replace('/[^A-Za-z0-9_-]/', '', $_GET['order'] ?? '');
    $amount = preg_match('/^\d{1,9}(\.\d{1,2})?$/', $_GET['amount'] ?? '') ? $_GET['amount'] : '';
    if ($order === '' || $amount === '') return answer(400, ['error' => 'order and amount (decimal text) are required']);
    $created = file_get_contents("$gateway/v1/invoices", false, stream_context_create(['http' => [
        'method' => 'POST', 'ignore_errors' => true, 'timeout' => 15,
        'header' => "Authorization: Bearer " . getenv('GATEWAY_API_KEY') . "\r\nContent-Type: application/json\r\n",
        'content' => json_encode(['type' => 'in', 'amount' => $amount, 'currency' => 'RUB', 'internalId' => $order]),
    ]]));
    $answer = json_decode($created ?: 'null', true);
    if (!isset($answer['checkoutToken'])) return answer(502, ['error' => 'the gateway did not create the invoice']);
    $id = htmlspecialchars($answer['invoice']['id']);
    $token = htmlspecialchars($answer['checkoutToken']);
    $origin = htmlspecialchars($gateway);
    header('Content-Type: text/html; charset=utf-8');
    echo <<<HTML
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="icon" href="data:,"><title>Pay for order $order</title><script type="module" src="$origin/element/merchant-checkout.js"></script></head>
    <body><main><h1>Order $order</h1>
    <merchant-checkout invoice-id="$id" endpoint="$origin/checkout-api" checkout-token="$token"></merchant-checkout>
    </main></body></html>
    HTML;
    return;
}

if ($path === '/webhook' && $_SERVER['REQUEST_METHOD'] === 'POST') {
    // Standard Webhooks: HMAC-SHA256 of "{id}.{timestamp}.{body}" with the secret after whsec_.
    $body = file_get_contents('php://input');
    $id = $_SERVER['HTTP_WEBHOOK_ID'] ?? '';
    $timestamp = $_SERVER['HTTP_WEBHOOK_TIMESTAMP'] ?? '';
    $key = base64_decode(substr(getenv('SHOP_WEBHOOK_SECRET') ?: '', 6));
    $expected = 'v1,' . base64_encode(hash_hmac('sha256', "$id.$timestamp.$body", $key, true));
    $signed = false;
    foreach (explode(' ', $_SERVER['HTTP_WEBHOOK_SIGNATURE'] ?? '') as $signature) $signed = $signed || hash_equals($expected, $signature);
    if (!$signed || abs(time() - (int) $timestamp) > 300) return answer(401, ['error' => 'bad signature']);
    // Each change once, by its webhook-id, whatever instance or retry delivers it.
    $file = fopen($books, 'c+');
    flock($file, LOCK_EX);
    $state = json_decode(stream_get_contents($file) ?: '{"seen":{},"orders":{}}', true);
    $duplicate = isset($state['seen'][$id]);
    if (!$duplicate) {
        $event = json_decode($body, true);
        $change = $event['data'];
        $order = $change['internalId'] ?? $change['invoiceId'];
        $now = $change['current'];
        // The money the shop has now for this order: what the service settled while it is paid.
        $credited = $now['status'] === 'paid' ? ($now['receivedSumFromTaker'] ?? $now['sum']) : '0';
        $state['seen'][$id] = true;
        $state['orders'][$order]['status'] = $now['status'];
        $state['orders'][$order]['credited'] = $credited;
        $state['orders'][$order]['changes'][] = ['id' => $id, 'type' => $event['type'], 'credited' => $credited];
        ftruncate($file, 0);
        rewind($file);
        fwrite($file, json_encode($state));
    }
    flock($file, LOCK_UN);
    fclose($file);
    return answer(200, ['ok' => true, 'duplicate' => $duplicate]);
}

if ($path === '/orders') return answer(200, json_decode(@file_get_contents($books) ?: '{"orders":{}}', true)['orders']);

answer(404, ['error' => 'not found']);
