import type { ComponentType } from 'react';

/**
 * Every page of the dashboard, declared once: the router (App.tsx), the preload of the page the
 * address names and the main navigation (Layout.tsx) all read this list. A page is loaded when first
 * opened (its own chunk), so this file names its loader, never the page itself.
 */
export interface PageRoute {
  /** The addresses (react-router patterns) this page answers; the first is where its link goes. */
  paths: readonly [string, ...string[]];
  load: () => Promise<{ default: ComponentType }>;
  /** The page's link in the main navigation: its name is part of the public contract (tests and people use it). */
  nav?: { label: string; ownersOnly?: boolean };
}

export const ROUTES = [
  { paths: ['/campaigns'], load: () => import('./pages/Campaigns'), nav: { label: 'Campaigns' } },
  { paths: ['/campaigns/:id'], load: () => import('./pages/Campaign') },
  { paths: ['/contacts'], load: () => import('./pages/Contacts'), nav: { label: 'Contacts' } },
  { paths: ['/contacts/:id'], load: () => import('./pages/Contact') },
  { paths: ['/calls'], load: () => import('./pages/Calls'), nav: { label: 'Calls' } },
  { paths: ['/calls/:id'], load: () => import('./pages/Call') },
  { paths: ['/live'], load: () => import('./pages/Live'), nav: { label: 'Live' } },
  { paths: ['/messages'], load: () => import('./pages/Messages'), nav: { label: 'Messages' } },
  { paths: ['/analytics'], load: () => import('./pages/Analytics'), nav: { label: 'Analytics' } },
  { paths: ['/integrations'], load: () => import('./pages/Integrations'), nav: { label: 'Integrations' } },
  { paths: ['/assistants'], load: () => import('./pages/Assistants'), nav: { label: 'Assistants' } },
  { paths: ['/phone-numbers'], load: () => import('./pages/PhoneNumbers'), nav: { label: 'Phone numbers' } },
  { paths: ['/voice-connections'], load: () => import('./pages/VoiceConnections'), nav: { label: 'Voice connections', ownersOnly: true } },
  { paths: ['/compliance', '/compliance/settings', '/compliance/privacy', '/compliance/audit'], load: () => import('./pages/Compliance'), nav: { label: 'Compliance' } },
  { paths: ['/account', '/api-keys', '/sub-users'], load: () => import('./pages/Profile'), nav: { label: 'Profile' } },
  { paths: ['/campaigns/:id/experiments/:experimentId'], load: () => import('./pages/ExperimentResults') },
] as const satisfies readonly PageRoute[];

/** Where `/` and an unknown address lead. */
export const HOME = '/campaigns';

/** The main navigation, in the list's order; a link is current on every address of its page. */
export const NAVIGATION = ROUTES.flatMap((route: PageRoute) => (route.nav ? [{ to: route.paths[0], paths: route.paths, ...route.nav }] : []));
