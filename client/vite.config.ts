import { readFileSync } from 'node:fs';
import path from 'node:path';
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

export default defineConfig({
  plugins: [react(), tailwindcss(), previewRuntimeConfig()],
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
