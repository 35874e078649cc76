import { describe, expect, it } from 'vitest';
import { any, findRoute, get, open, routeLabel } from '../../src/server/http/routes.ts';

describe('the API route table', () => {
  const routes = [
    open('/api/session', () => {}),
    get('/api/candidates/refId/:id*', () => {}),
    get('/api/things/:name', () => {}),
    any('/api/candidates/:rest*', () => {}),
  ];
  const match = (path: string) => {
    const found = findRoute(routes, path);
    return found && { label: routeLabel(found.route), params: found.params };
  };

  it('matches literal paths exactly', () => {
    expect(match('/api/session')).toEqual({ label: '/api/session', params: {} });
    expect(match('/api/session/')).toBeUndefined();
    expect(match('/api/sessions')).toBeUndefined();
  });

  it('gives a rest parameter everything after its slash, still encoded, slashes included', () => {
    expect(match('/api/candidates/refId/a%2Fb/c')).toEqual({ label: '/api/candidates/refId/:id', params: { id: 'a%2Fb/c' } });
    expect(match('/api/candidates/refId/')).toEqual({ label: '/api/candidates/refId/:id', params: { id: '' } });
  });

  it('takes the first route that matches, and needs a non-empty segment for a plain parameter', () => {
    expect(match('/api/candidates/refId')?.label).toBe('/api/candidates/:rest');
    expect(match('/api/candidates/other/x')).toEqual({ label: '/api/candidates/:rest', params: { rest: 'other/x' } });
    expect(match('/api/candidates')).toBeUndefined();
    expect(match('/api/things/x')).toEqual({ label: '/api/things/:name', params: { name: 'x' } });
    expect(match('/api/things/')).toBeUndefined();
    expect(match('/api/things/x/y')).toBeUndefined();
  });
});
