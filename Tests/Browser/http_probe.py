#!/usr/bin/python3
"""One HTTP request exactly as given (any Host, Origin or Cookie header), for the page's attack tests.

  http_probe.py METHOD URL [--header 'Name: value']... [--body TEXT]

Prints {"status": N, "headers": {...}, "body": "...", "bytes": "<base64>"} as one JSON line. Standard library only,
so it runs as any uid and inside a sandbox.
"""
import argparse, base64, http.client, json, urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("method")
parser.add_argument("url")
parser.add_argument("--header", action="append", default=[])
parser.add_argument("--body", default=None)
args = parser.parse_args()
url = urllib.parse.urlsplit(args.url)
connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
headers = dict(h.split(": ", 1) for h in args.header)
connection.putrequest(args.method, url.path + ("?" + url.query if url.query else ""), skip_host="Host" in headers)
for name, value in headers.items():
    connection.putheader(name, value)
body = args.body.encode() if args.body is not None else None
if body is not None:
    connection.putheader("Content-Length", str(len(body)))
connection.endheaders(body)
response = connection.getresponse()
raw = response.read()
print(json.dumps({"status": response.status, "headers": {k.lower(): v for k, v in response.getheaders()},
                  "body": raw.decode("utf-8", "replace"), "bytes": base64.b64encode(raw).decode()}))
