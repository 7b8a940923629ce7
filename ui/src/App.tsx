import { lazy, Suspense } from 'react';
import { Center, Loader } from '@mantine/core';
import { Navigate, Route, Routes } from 'react-router-dom';
import { useSession } from './api/session';
import { Layout } from './components/Layout';
import { SignIn } from './pages/SignIn';

// Every page is its own chunk, loaded when first opened: the entry holds only the shell and sign-in.
const Campaigns = lazy(() => import('./pages/Campaigns'));
const Contacts = lazy(() => import('./pages/Contacts'));
const Calls = lazy(() => import('./pages/Calls'));
const Call = lazy(() => import('./pages/Call'));
const Analytics = lazy(() => import('./pages/Analytics'));
const Integrations = lazy(() => import('./pages/Integrations'));
const ApiKeys = lazy(() => import('./pages/ApiKeys'));

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
          <Route path="/contacts" element={<Contacts />} />
          <Route path="/calls" element={<Calls />} />
          <Route path="/calls/:id" element={<Call />} />
          <Route path="/analytics" element={<Analytics />} />
          <Route path="/integrations" element={<Integrations />} />
          <Route path="/api-keys" element={<ApiKeys />} />
          <Route path="*" element={<Navigate to="/campaigns" replace />} />
        </Routes>
      </Suspense>
    </Layout>
  );
}
