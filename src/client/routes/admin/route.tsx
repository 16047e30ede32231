import { Outlet, createFileRoute } from '@tanstack/react-router'
import { AdminSectionNav } from '@/client/features/admin/section-nav/section-nav'

/**
 * The admin area's layout: its section navigation above every admin page. No guard of its own:
 * each page has its guards (the level form is for every signed-in person, and the nav shows
 * nothing to a learner).
 */
export const Route = createFileRoute('/admin')({
  component: AdminLayout,
})

function AdminLayout() {
  return (
    <>
      <AdminSectionNav />
      <Outlet />
    </>
  )
}
