// Content for editors (issue 2 §4): info pages and blog posts in Markdown, header/footer/menus/slides/meta in JSON.
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';

const link = z.object({ name: z.string().min(1), url: z.string().min(1) });

const info = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/info', generateId: ({ data }) => String(data['pageId']) }),
  schema: z.object({
    pageId: z.number().int().positive(),
    slug: z.string().regex(/^[a-z0-9-]+$/),
    title: z.string().min(1),
    description: z.string().min(1).max(200),
    // When the text last changed in substance: the sitemap's lastmod (the build's date when absent).
    updated: z.coerce.date().optional(),
  }),
});

const blog = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/blog', generateId: ({ data }) => String(data['postId']) }),
  schema: z.object({
    postId: z.number().int().positive(),
    permalink: z.string().regex(/^[a-z0-9-]+$/),
    title: z.string().min(1),
    description: z.string().min(1).max(200),
    date: z.coerce.date(),
    cover: z.object({ image: z.string().regex(/^[a-z-]+-[a-z-]+-\d$/), tone: z.string() }),
    tags: z.array(z.string()).default([]),
  }),
});

const menus = defineCollection({
  loader: file('src/content/site/menus.json'),
  schema: z.object({ id: z.string(), title: z.string().optional(), menus: z.array(link) }),
});

const footer = defineCollection({
  loader: file('src/content/site/footer.json'),
  schema: z.object({ id: z.string(), title: z.string().optional(), menus: z.array(link).optional(), text: z.string().optional() }),
});

const headerTags = defineCollection({
  loader: file('src/content/site/header-tags.json'),
  schema: z.object({ id: z.string(), title: z.string(), url: z.string(), sort: z.number().int() }),
});

const slides = defineCollection({
  loader: file('src/content/site/slides.json'),
  schema: z.object({
    id: z.string(),
    sort: z.number().int(),
    eyebrow: z.string(),
    title: z.string(),
    text: z.string(),
    cta: link,
    tone: z.string(),
    kind: z.string(),
  }),
});

const meta = defineCollection({
  loader: file('src/content/site/meta.json'),
  schema: z.object({ id: z.string(), title: z.string().min(1), description: z.string().min(1) }),
});

// Checkout's delivery methods (issue 9): names, prices in kopecks and days, edited here like the menus.
const delivery = defineCollection({
  loader: file('src/content/site/delivery.json'),
  schema: z.object({
    id: z.enum(['courier', 'pickup', 'post']),
    name: z.string().min(1),
    description: z.string(),
    price: z.number().int().min(0),
    days_min: z.number().int().min(0),
    days_max: z.number().int().min(0),
    address: z.enum(['full', 'point', 'postal']),
  }),
});

export const collections = { info, blog, menus, footer, headerTags, slides, meta, delivery };
