// The first screen's island code asked for at the first paint, from the head's inline script: the page
// script that starts the islands (eager-islands.client.ts) runs only once the document is parsed, which on
// the throttled phone came 0.8–1 s after the paint, and the islands' files were asked for only then
// (docs/performance.md "React paid back"). The list is the build's (`<html data-island-modules>`,
// src/lib/first-screen.ts) and the eager islands parsed by then (a product page's buy box).
//
// "At the first paint": when the paint entry reaches the page. On the throttled phone that is 300–1,100 ms
// after the paint itself, behind the layout of the rest of the page and its stylesheets, but still ahead of
// the page script. Animation frames asked for from the head to find the paint sooner hydrated the home page
// sooner (0.65× of 174c5a0 against 0.76×), but every frame drawn before the paint counted in Lighthouse's
// simulated first paint, and the files asked for ahead of its observed LCP in its LCP: a product page's FCP
// 0.85 → 1.02 s and LCP 1.13 → 2.23 s (docs/performance.md "React paid back").

/** What the page script calls if it starts the islands first (a tab opened in the background has no frames). */
export const PRELOAD_HOOK = 'shopPreloadIslands';

export const ISLAND_PRELOAD_BOOT = `;(function(){var r=document.documentElement,d=0;function go(){if(d)return;d=1;var l=(r.getAttribute('data-island-modules')||'').split(' '),s={};document.querySelectorAll('astro-island[client="eager"]').forEach(function(i){l.push(i.getAttribute('component-url'),i.getAttribute('renderer-url'))});l.forEach(function(h){if(!h||s[h])return;s[h]=1;var k=document.createElement('link');k.rel='modulepreload';k.href=h;document.head.appendChild(k)})}window.${PRELOAD_HOOK}=go;try{new PerformanceObserver(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();setTimeout(go)}}).observe({type:'paint',buffered:true})}catch(e){}})()`;
