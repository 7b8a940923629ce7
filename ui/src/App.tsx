import { lazy, Suspense, type ComponentType } from 'react';
import { Center, Loader } from '@mantine/core';
import { Navigate, Route, Routes } from 'react-router-dom';
import { useSession } from './pages/session/queries';
import { Layout } from './components/Layout';
import { SignIn } from './pages/session/SignIn';

// Every page is its own chunk, loaded when first opened: the entry holds only the shell and sign-in.
// A page already loaded renders at once: React.lazy suspends on its first render even then, and
// React holds a Suspense fallback for up to 300 ms before it reveals the page.
function page(loader: () => Promise<{ default: ComponentType }>) {
  let loaded: ComponentType | null = null;
  const load = () => loader().then((module) => {
    loaded = module.default;
    return module;
  });
  const Lazy = lazy(load);
  const Page = () => {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  };
  return Object.assign(Page, { load });
}

const Campaigns = page(() => import('./pages/Campaigns'));
const Contacts = page(() => import('./pages/Contacts'));
const Calls = page(() => import('./pages/Calls'));
const Call = page(() => import('./pages/Call'));
const Analytics = page(() => import('./pages/Analytics'));
const Integrations = page(() => import('./pages/Integrations'));
const Profile = page(() => import('./pages/Profile'));
const Campaign = page(() => import('./pages/Campaign'));
const Assistants = page(() => import('./pages/Assistants'));
const VoiceConnections = page(() => import('./pages/VoiceConnections'));
const Compliance = page(() => import('./pages/Compliance'));

// The page the address names starts loading at once, beside the session check, not after it.
const path = window.location.pathname;
const firstPage = /^\/calls\/\d+/.test(path) ? Call
  : /^\/campaigns\/(\d+|new)$/.test(path) ? Campaign
  : ({ '/campaigns': Campaigns, '/contacts': Contacts, '/calls': Calls, '/analytics': Analytics, '/integrations': Integrations, '/assistants': Assistants, '/voice-connections': VoiceConnections, '/compliance': Compliance, '/compliance/settings': Compliance, '/compliance/audit': Compliance, '/api-keys': Profile, '/account': Profile, '/sub-users': Profile } as Record<string, { load(): Promise<unknown> }>)[path];
void firstPage?.load();

const Waiting = () => (
  <Center h="50vh">
    <Loader aria-label="Loading" />
  </Center>
);

export function App() {
  const session = useSession();
  if (session.isPending) return <Waiting />;
  if (!session.data) return <SignIn />;
  return (
    <Layout user={session.data}>
      <Suspense fallback={<Waiting />}>
        <Routes>
          <Route path="/" element={<Navigate to="/campaigns" replace />} />
          <Route path="/campaigns" element={<Campaigns />} />
          <Route path="/campaigns/:id" element={<Campaign />} />
          <Route path="/contacts" element={<Contacts />} />
          <Route path="/calls" element={<Calls />} />
          <Route path="/calls/:id" element={<Call />} />
          <Route path="/analytics" element={<Analytics />} />
          <Route path="/integrations" element={<Integrations />} />
          <Route path="/assistants" element={<Assistants />} />
          <Route path="/voice-connections" element={<VoiceConnections />} />
          <Route path="/compliance" element={<Compliance />} />
          <Route path="/compliance/settings" element={<Compliance />} />
          <Route path="/compliance/audit" element={<Compliance />} />
          <Route path="/api-keys" element={<Profile />} />
          <Route path="/account" element={<Profile />} />
          <Route path="/sub-users" element={<Profile />} />
          <Route path="*" element={<Navigate to="/campaigns" replace />} />
        </Routes>
      </Suspense>
    </Layout>
  );
}
