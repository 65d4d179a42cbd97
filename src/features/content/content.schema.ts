// The content calls' answers (spec §7) as schemas: the source of the types content.ts re-exports and
// of the OpenAPI document.
import { z } from '../../lib/zod.ts';

export const menuLinkSchema = z.object({ name: z.string(), url: z.string() }).meta({ id: 'MenuLink' });
export const footerMenuSchema = z.object({ title: z.string(), menus: z.array(menuLinkSchema) }).meta({ id: 'FooterMenu' });
export const footerSchema = z
  .object({
    footer_left_menu: footerMenuSchema,
    footer_center_menu: footerMenuSchema,
    footer_right_menu: footerMenuSchema,
    copyright_widget: z.object({ text: z.string() }),
  })
  .meta({ id: 'Footer' });
export const headerTagSchema = z.object({ title: z.string(), url: z.string() }).meta({ id: 'HeaderTag' });
export const headerSectionsSchema = z
  .array(z.object({ id: z.number().int(), type: z.literal('tags'), properties: z.object({ tags: z.array(headerTagSchema) }) }))
  .meta({ id: 'HeaderSections', description: 'spec §7: data[0].properties.tags' });
export const topMenusSchema = z.object({ header_top_left_menus: z.object({ menus: z.array(menuLinkSchema) }) }).meta({ id: 'TopMenus' });

export const infoPageSchema = z
  .object({ id: z.number().int(), slug: z.string(), url: z.string(), title: z.string(), description: z.string(), content: z.string().describe('HTML') })
  .meta({ id: 'InfoPage' });

export const blogPostSummarySchema = z
  .object({
    id: z.number().int(),
    permalink: z.string(),
    url: z.string(),
    title: z.string(),
    description: z.string(),
    date: z.string().describe('ISO 8601'),
    tags: z.array(z.string()),
    cover: z.object({ src: z.string(), srcset: z.string(), width: z.number().int(), height: z.number().int(), tone: z.string() }),
  })
  .meta({ id: 'BlogPostSummary' });
export const blogPostSchema = blogPostSummarySchema.extend({ content: z.string().describe('HTML') }).meta({ id: 'BlogPost' });
export const blogListSchema = z
  .object({ posts: z.array(blogPostSummarySchema), page: z.number().int(), pages: z.number().int(), total: z.number().int() })
  .meta({ id: 'BlogList' });

export type MenuLink = z.infer<typeof menuLinkSchema>;
export type FooterMenu = z.infer<typeof footerMenuSchema>;
export type FooterData = z.infer<typeof footerSchema>;
export type HeaderTag = z.infer<typeof headerTagSchema>;
export type InfoPage = z.infer<typeof infoPageSchema>;
export type BlogPostSummary = z.infer<typeof blogPostSummarySchema>;
export type BlogPost = z.infer<typeof blogPostSchema>;
