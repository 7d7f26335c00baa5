import { type Clinic, paths } from '@doctors-portal/contract';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { clinicQuery } from './api/clinic';
import { titleOf } from './app/document-title';
import { AppProvider } from './app/provider';
import { AppRoutes, PRERENDERED_SCREENS } from './app/router';
import { createQueryClient } from './lib/query-client';

/**
 * The public pages the server sends as HTML, so that a visitor sees them before any JavaScript
 * has run; the app then hydrates them (main.tsx). They show the same to everyone: no session,
 * nothing that depends on the day (useHydrated), and the clinic's details, which come from the
 * server's configuration.
 */
const PRERENDERED_PATHS = [paths.root, paths.home, ...Object.keys(PRERENDERED_SCREENS)];

export interface PrerenderedPage {
  path: string;
  /** The document title the app would set. */
  title: string;
  /** What goes inside the page's #root element. */
  html: string;
}

/**
 * Renders the public pages with the clinic's details: the server does this once when it starts
 * (the details are part of its configuration), so no request pays for it.
 */
export async function prerenderPages(clinic: Clinic): Promise<PrerenderedPage[]> {
  // Loaded first, the screens render in place rather than suspending (router.tsx).
  await Promise.all(Object.values(PRERENDERED_SCREENS).map((screen) => screen.load()));
  const pages: PrerenderedPage[] = [];
  for (const path of PRERENDERED_PATHS) {
    pages.push({ path, title: titleOf(path), html: await renderPage(path, clinic) });
  }
  return pages;
}

/**
 * The app as the browser's first render would draw it at `path`. Unlike renderToString, prerender
 * waits for the lazily loaded screens and writes them in place.
 */
async function renderPage(path: string, clinic: Clinic): Promise<string> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(clinicQuery.queryKey, clinic);
  const { prelude } = await prerender(
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <StaticRouter location={path}>
          <AppRoutes />
        </StaticRouter>
      </AppProvider>
    </StrictMode>,
    // React would otherwise write a large screen after a fallback and swap it in by an inline
    // script, which the content security policy refuses.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}
