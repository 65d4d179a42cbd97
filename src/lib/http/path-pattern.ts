/** An OpenAPI path template as a pattern: '/api/v1/x/{id}' matches '/api/v1/x/5', not '/api/v1/x/5/y'. */
export function pathPattern(template: string): RegExp {
  return new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);
}
