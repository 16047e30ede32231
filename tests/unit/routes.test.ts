import { createRouter } from '@tanstack/react-router'
import { describe, expect, it } from 'vitest'
import { routeTree } from '@/client/routeTree.gen'
import { matchRoute, parsePositiveInt, routeTable } from '@/shared/routes'

describe('the shared route table', () => {
  it('lists exactly the routes of the client router', () => {
    const router = createRouter({
      routeTree,
      context: { auth: { getUser: () => Promise.resolve(null), getFreshUser: () => Promise.resolve(null) } },
    })
    const clientPaths = Object.keys(router.routesByPath)
      .map((path) => (path.length > 1 ? path.replace(/\/$/, '') : path))
      .sort()
    expect(clientPaths).toEqual(routeTable.map((route) => route.path).sort())
  })

  it.each([
    ['/', '/'],
    ['/about', '/about'],
    ['/about/', '/about'],
    ['/admin', '/admin'],
    ['/admin/users', '/admin/users'],
    ['/admin/users/aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE', '/admin/users/$userId'],
    ['/admin/recent-changes', '/admin/recent-changes'],
    ['/admin/language-levels', '/admin/language-levels'],
    ['/admin/language-levels/create', '/admin/language-levels/create'],
    ['/admin/language-levels/1', '/admin/language-levels/$id'],
    ['/admin/language-levels/42', '/admin/language-levels/$id'],
    ['/shared-state-about', '/shared-state-about'],
  ])('matches %s to %s', (pathname, pattern) => {
    expect(matchRoute(pathname)?.path).toBe(pattern)
  })

  it.each([
    '/nope',
    '/about/more',
    '/admin/users/short',
    '/admin/users/aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1d-',
    '/admin/users/aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE/more',
    '/admin/language-levels/0',
    '/admin/language-levels/01',
    '/admin/language-levels/-1',
    '/admin/language-levels/1.5',
    '/admin/language-levels/abc',
    '/admin/language-levels/1/edit',
    '/%E0%A4%A',
  ])('matches no route for %s', (pathname) => {
    expect(matchRoute(pathname)).toBeUndefined()
  })

  it('parses positive integers only', () => {
    expect(parsePositiveInt('7')).toBe(7)
    expect(parsePositiveInt('0')).toBeUndefined()
    expect(parsePositiveInt('1e3')).toBeUndefined()
    expect(parsePositiveInt(' 1')).toBeUndefined()
  })
})
