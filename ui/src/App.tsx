import { lazy, Suspense, type ComponentType } from 'react';
import { Center, Loader } from '@mantine/core';
import { matchPath, Navigate, Route, Routes } from 'react-router-dom';
import { useSession } from './pages/session/queries';
import { Layout } from './components/Layout';
import { SignIn } from './pages/session/SignIn';
import { HOME, ROUTES, type PageRoute } from './routes';

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

// One lazy component per page, made once; a page with several addresses is one component.
const PAGES = ROUTES.map((route: PageRoute) => ({ paths: route.paths, Page: page(route.load) }));

// The page the address names starts loading at once, beside the session check, not after it.
const path = window.location.pathname;
void PAGES.find((p) => p.paths.some((pattern) => matchPath(pattern, path)))?.Page.load();

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
          <Route path="/" element={<Navigate to={HOME} replace />} />
          {PAGES.flatMap(({ paths, Page }) => paths.map((p) => <Route key={p} path={p} element={<Page />} />))}
          <Route path="*" element={<Navigate to={HOME} replace />} />
        </Routes>
      </Suspense>
    </Layout>
  );
}
