import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';

const API_TARGET = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:8080';
const CONFIG_PLACEHOLDER = '<!--APP_CONFIG-->';

/**
 * `vite preview` stand-in for what the Rust server does in every real deployment: write the
 * runtime configuration into the served index.html and fall back to it for client routes.
 * Only a developer convenience; values come from .env.development overridden by process.env.
 */
function previewRuntimeConfig(): Plugin {
  return {
    name: 'talent-suite:preview-runtime-config',
    configurePreviewServer(server) {
      const fileEnv = loadEnv('development', server.config.root, 'VITE_');
      const runtime: Record<string, string> = { ...fileEnv };
      for (const [key, value] of Object.entries(process.env)) {
        if (key.startsWith('VITE_') && value !== undefined) runtime[key] = value;
      }
      const json = JSON.stringify(runtime).replace(/</g, '\\u003c');
      const indexPath = path.join(server.config.root, server.config.build.outDir, 'index.html');
      server.middlewares.use((req, res, next) => {
        const url = (req.url ?? '/').split('?')[0] ?? '/';
        const isPage = req.method === 'GET' && (url === '/' || url.endsWith('.html') || !path.extname(url));
        if (!isPage || url.startsWith('/api/')) {
          next();
          return;
        }
        const html = readFileSync(indexPath, 'utf8').replace(CONFIG_PLACEHOLDER, json);
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.setHeader('Cache-Control', 'no-cache');
        res.end(html);
      });
    },
  };
}

/**
 * Writes `.br` and `.gz` next to each built script and stylesheet so the server can send
 * them precompressed (tower-http ServeDir precompressed_br / precompressed_gzip).
 */
function precompressAssets(): Plugin {
  return {
    name: 'talent-suite:precompress-assets',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir;
      if (!outDir) return;
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|svg|json)$/.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), previewRuntimeConfig(), precompressAssets()],
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  server: {
    proxy: { '/api': { target: API_TARGET, changeOrigin: true } },
  },
  preview: {
    proxy: { '/api': { target: API_TARGET, changeOrigin: true } },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
  },
});
