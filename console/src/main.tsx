import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startApp } from './api/early';
import { queryClient } from './api/query-client';
import { router } from './routes/router';
import './styles.css';

// The early script (early.ts) asks nothing once this runs, if it comes after it.
startApp();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
