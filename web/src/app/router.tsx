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
  const Screen = lazy(load);
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
const about = screen(() => import('../routes/about'));
const whoWeAre = screen(() => import('../routes/who-we-are'));
const login = screen(() => import('../routes/login'));
const signup = screen(() => import('../routes/signup'));
const resetPassword = screen(() => import('../routes/reset-password'));
const visit = screen(() => import('../routes/visit'));
const notFound = screen(() => import('../routes/not-found'));

export function AppRouter() {
  return (
    <BrowserRouter>
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
          <Route path="about" element={about} />
          <Route path="who-we-are" element={whoWeAre} />
          <Route path="login" element={login} />
          <Route path="signup" element={signup} />
          <Route path="reset-password" element={resetPassword} />
          <Route path="visit/:token" element={visit} />
          <Route path="*" element={notFound} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
