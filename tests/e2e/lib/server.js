// A tiny static file server for the built site, as a plain static host
// serves it: loopback only, a random port, each site mounted under a
// sub-path, `dir/` -> `dir/index.html`, `dir` -> 301 to `dir/`, and the
// site's own 404.html with status 404 for anything missing.
"use strict";

const fs = require("fs");
const http = require("http");
const path = require("path");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".csv": "text/csv; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webmanifest": "application/manifest+json",
};

/// Starts the server; `mounts` is filled in later (the port is needed to
/// build the sites with the right base URL). Resolves to
/// { port, origin, mount(prefix, dir), close() }.
function start() {
  const mounts = new Map(); // "/site/" -> absolute folder
  const server = http.createServer((req, res) => {
    const send = (status, headers, body) => {
      res.writeHead(status, headers);
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (req.method !== "GET" && req.method !== "HEAD") {
      return send(405, { "content-type": "text/plain", allow: "GET, HEAD" }, "method not allowed\n");
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, "http://x").pathname);
    } catch (_) {
      return send(400, { "content-type": "text/plain" }, "bad request\n");
    }
    let prefix = null;
    for (const p of mounts.keys()) if (pathname.startsWith(p)) prefix = p;
    if (prefix === null) {
      if (mounts.has(pathname + "/")) {
        return send(301, { location: pathname + "/" }, "");
      }
      return send(404, { "content-type": "text/plain" }, "not found\n");
    }
    const root = mounts.get(prefix);
    const rel = pathname.slice(prefix.length);
    const file = path.join(root, rel);
    if (file !== root && !file.startsWith(root + path.sep)) {
      return send(403, { "content-type": "text/plain" }, "forbidden\n");
    }
    let target = file;
    let st = stat(target);
    if (st && st.isDirectory()) {
      if (!pathname.endsWith("/")) {
        const q = new URL(req.url, "http://x").search;
        return send(301, { location: pathname + "/" + q }, "");
      }
      target = path.join(file, "index.html");
      st = stat(target);
    }
    if (!st || !st.isFile()) {
      const notFound = path.join(root, "404.html");
      if (stat(notFound)) {
        return send(404, { "content-type": TYPES[".html"] }, fs.readFileSync(notFound));
      }
      return send(404, { "content-type": "text/plain" }, "not found\n");
    }
    const type = TYPES[path.extname(target).toLowerCase()] || "application/octet-stream";
    send(200, { "content-type": type, "content-length": st.size, "cache-control": "no-store" },
      fs.readFileSync(target));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        port,
        origin: `http://127.0.0.1:${port}`,
        mount(prefix, dir) {
          mounts.set(prefix, path.resolve(dir));
        },
        close() {
          return new Promise((r) => {
            server.closeAllConnections && server.closeAllConnections();
            server.close(() => r());
          });
        },
      });
    });
  });
}

function stat(p) {
  try {
    return fs.statSync(p);
  } catch (_) {
    return null;
  }
}

/// GET `url` without following redirects: { status, type, body }.
function get(url, timeoutMs = 10000) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode,
          type: res.headers["content-type"] || "",
          location: res.headers.location,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("timeout", () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${url}`)));
    req.on("error", reject);
  });
}

module.exports = { start, get };
