import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { ConfigError } from './app/config-error';
import { loadConfig } from './lib/config';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const result = loadConfig();
createRoot(container).render(
  <StrictMode>{result.ok ? <App config={result.config} /> : <ConfigError message={result.error} />}</StrictMode>,
);
