import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import './styles.css';
import { App } from './App.js';
import { ApiProvider } from './api/context.js';
import { createApiClient, tokenFrom } from './api/client.js';
import { DesignerProvider } from './store/context.js';

const client = createApiClient({ token: tokenFrom(window.location.search) });
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <ApiProvider client={client}>
      <DesignerProvider>
        <App />
      </DesignerProvider>
    </ApiProvider>
  </StrictMode>,
);
