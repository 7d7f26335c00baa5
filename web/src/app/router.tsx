import { paths } from '@doctors-portal/contract';
import { type ComponentType, lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { AdminOutlet, SignedInOutlet } from '../lib/auth/guards';
import HomeRoute from '../routes/home';
import { RootLayout } from './root-layout';

/**
 * A screen whose module loads only when its route is visited, keeping the landing bundle small.
 * Declarative routes rather than a data router: no screen uses loaders or actions, and the data
 * router's code would add 53 KB (16 KB gzip) to every page's first JavaScript (docs/performance.md).
 */
function screen(load: () => Promise<{ default: ComponentType }>) {
  return loadableScreen(load).element;
}

/** A screen's module, loaded on first render or ahead of it. */
interface Loadable {
  Lazy: ComponentType;
  /** The screen, once its module has loaded. */
  Loaded?: ComponentType;
}

/**
 * A lazily loaded screen that can be loaded ahead: once `load` has settled it renders at once,
 * without suspending. The browser does this for a prerendered screen before it hydrates the
 * server's HTML (main.tsx), so hydration never meets a screen still loading.
 */
function loadableScreen(load: () => Promise<{ default: ComponentType }>) {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const loadOnce = () => {
    loading ??= load().then((module) => {
      screen.Loaded = module.default;
      return module;
    });
    return loading;
  };
  const screen: Loadable = { Lazy: lazy(loadOnce) };
  return { element: <LoadedOrLazy screen={screen} />, load: loadOnce };
}

function LoadedOrLazy({ screen }: { screen: Loadable }) {
  const Screen = screen.Loaded ?? screen.Lazy;
  return <Screen />;
}

const appointment = screen(() => import('../routes/appointment'));
const dashboard = screen(() => import('../routes/dashboard/layout'));
const myAppointments = screen(() => import('../routes/dashboard/my-appointments'));
const review = screen(() => import('../routes/dashboard/review'));
const history = screen(() => import('../routes/dashboard/history'));
const account = screen(() => import('../routes/dashboard/account'));
const payment = screen(() => import('../routes/dashboard/payment'));
const schedule = screen(() => import('../routes/dashboard/schedule'));
const treatments = screen(() => import('../routes/dashboard/treatments'));
const clinic = screen(() => import('../routes/dashboard/clinic'));
const users = screen(() => import('../routes/dashboard/users'));
const addDoctor = screen(() => import('../routes/dashboard/add-doctor'));
const manageDoctor = screen(() => import('../routes/dashboard/manage-doctor'));
const messages = screen(() => import('../routes/dashboard/messages'));
const audit = screen(() => import('../routes/dashboard/audit'));
const outgoingMail = screen(() => import('../routes/dashboard/outgoing-mail'));
const about = loadableScreen(() => import('../routes/about'));
const whoWeAre = screen(() => import('../routes/who-we-are'));
const login = loadableScreen(() => import('../routes/login'));
const signup = loadableScreen(() => import('../routes/signup'));
const resetPassword = screen(() => import('../routes/reset-password'));
const visit = screen(() => import('../routes/visit'));
const notFound = screen(() => import('../routes/not-found'));

/**
 * The screens besides the home page that the server prerenders (prerender.tsx), by path: the
 * browser loads the one it is on before it takes over the server's HTML.
 */
export const PRERENDERED_SCREENS: Record<string, { load(): Promise<unknown> }> = {
  [paths.about]: about,
  [paths.login]: login,
  [paths.signup]: signup,
};

/** Every route of the portal, under whichever router the browser or the prerender gives it. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomeRoute />} />
        <Route path="home" element={<HomeRoute />} />
        <Route element={<SignedInOutlet />}>
          <Route path="appointment" element={appointment} />
          <Route path="dashboard" element={dashboard}>
            <Route index element={myAppointments} />
            <Route path="review" element={review} />
            <Route path="history" element={history} />
            <Route path="account" element={account} />
            <Route path="payment/:bookingId" element={payment} />
            <Route element={<AdminOutlet />}>
              <Route path="schedule" element={schedule} />
              <Route path="treatments" element={treatments} />
              <Route path="clinic" element={clinic} />
              <Route path="users" element={users} />
              <Route path="add-doctor" element={addDoctor} />
              <Route path="manage-doctor" element={manageDoctor} />
              <Route path="messages" element={messages} />
              <Route path="audit" element={audit} />
              <Route path="mail" element={outgoingMail} />
            </Route>
          </Route>
        </Route>
        <Route path="about" element={about.element} />
        <Route path="who-we-are" element={whoWeAre} />
        <Route path="login" element={login.element} />
        <Route path="signup" element={signup.element} />
        <Route path="reset-password" element={resetPassword} />
        <Route path="visit/:token" element={visit} />
        <Route path="*" element={notFound} />
      </Route>
    </Routes>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
