// Serves the built web app (apps/web/dist) with a single-page-app fallback to index.html.
// The folder is found relative to this module, so it works from src/ (tests) and dist/ (CLI).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export const NOT_BUILT_MESSAGE =
  'The Streamwright web app is not built. Build it with `pnpm --filter @streamwright/web build` ' +
  '(`npm start` does this), then reload. The API is available at /trpc.';

export async function webAppBuilt(root: string): Promise<boolean> {
  return isFile(join(root, 'index.html'));
}

export async function serveStatic(
  root: string,
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
    res.end('Method Not Allowed\n');
    return;
  }
  const index = join(root, 'index.html');
  if (!(await isFile(index))) {
    res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    res.end(notBuiltPage(root), 'utf8');
    return;
  }
  const file = await resolveFile(root, pathname);
  if (file) {
    sendFile(file, req, res);
    return;
  }
  // Client-side routes have no extension; a missing asset (with one) is a real 404.
  if (extname(pathname) !== '') {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not Found\n');
    return;
  }
  sendFile(index, req, res);
}

async function resolveFile(root: string, pathname: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const base = resolve(root);
  const candidate = resolve(base, `.${decoded}`);
  // Refuse anything that resolves outside the web root ("/../../etc/passwd").
  if (candidate !== base && !candidate.startsWith(base + sep)) return null;
  if (await isFile(candidate)) return candidate;
  return null;
}

function sendFile(file: string, req: IncomingMessage, res: ServerResponse): void {
  const hashedAsset = file.includes(`${sep}assets${sep}`);
  res.writeHead(200, {
    'content-type': contentTypeOf(file),
    'cache-control': hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function notBuiltPage(root: string): string {
  const escaped = root.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Streamwright: web app not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto">
<h1>Streamwright runtime</h1>
<p>${NOT_BUILT_MESSAGE.replace(/`([^`]+)`/g, '<code>$1</code>')}</p>
<p>Looked for <code>${escaped}index.html</code>.</p>
</body></html>
`;
}
