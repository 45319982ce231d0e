import { ApolloProvider } from '@apollo/client/react';
import { LoaderCircle } from 'lucide-react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { adminPaths } from '@/config/admin-paths';
import { AdminLayout } from '@/features/admin/components/admin-layout';
import { AdminApplicationsPage } from '@/features/admin/routes/admin-applications-page';
import { AdminAuditPage } from '@/features/admin/routes/admin-audit-page';
import { AdminOrganizationsPage } from '@/features/admin/routes/admin-organizations-page';
import { AdminUserPage } from '@/features/admin/routes/admin-user-page';
import { AdminUsersPage } from '@/features/admin/routes/admin-users-page';
import { NewsAdminPanel } from '@/features/news/components/news-admin-panel';
import { useSharedApolloClient } from '@/lib/apollo-client';
import { isAdmin } from '@/lib/roles';
import { useSession } from '@/lib/session';
import { NotFoundPage } from './not-found';

/**
 * `/admin/*`, the admin console (issue 24). Anyone but an admin, signed in or not, gets the
 * site's 404 page: the console does not say it exists. The server refuses its calls to
 * everyone else anyway (401 / 403).
 */
export function AdminConsolePage() {
  const session = useSession();
  if (session.state === 'loading') {
    return (
      <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
        <p role="status" className="flex items-center gap-2 text-ink-700">
          <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
          Loading...
        </p>
      </div>
    );
  }
  if (session.state === 'signed-out' || !isAdmin(session.user)) return <NotFoundPage />;
  return <AdminConsole />;
}

function AdminConsole() {
  // Applications and News are GraphQL; the other sections are REST.
  const client = useSharedApolloClient();
  return (
    <ApolloProvider client={client}>
      <Routes>
        <Route element={<AdminLayout />}>
          <Route index element={<Navigate to={adminPaths.users.getHref()} replace />} />
          <Route path={adminPaths.users.path} element={<AdminUsersPage />} />
          <Route path={adminPaths.user.path} element={<AdminUserPage />} />
          <Route path={adminPaths.organizations.path} element={<AdminOrganizationsPage />} />
          <Route path={adminPaths.audit.path} element={<AdminAuditPage />} />
          <Route path={adminPaths.applications.path} element={<AdminApplicationsPage />} />
          <Route path={adminPaths.news.path} element={<NewsAdminPanel />} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </ApolloProvider>
  );
}
