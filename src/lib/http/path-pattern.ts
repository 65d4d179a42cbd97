/**
 * An OpenAPI path template as a pattern: '/api/v1/x/{id}' matches '/api/v1/x/5', not '/api/v1/x/5/y'. A
 * trailing slash is optional on either side, as the server serves both (Astro's trailingSlash 'ignore').
 */
export function pathPattern(template: string): RegExp {
  const body = template
    .replace(/\/$/, '')
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\{\w+\}/g, '[^/]+');
  return new RegExp(`^${body}/?$`);
}
