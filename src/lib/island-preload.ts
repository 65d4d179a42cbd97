// The first screen's island code asked for at the first paint, from the head's inline script: the page
// script that starts the islands (eager-islands.client.ts) runs only once the document is parsed, which on
// the throttled phone came 0.8–1 s after the paint, and the islands' files were asked for only then
// (docs/performance.md "React paid back"). The list is the build's (`<html data-island-modules>`,
// src/lib/first-screen.ts) and the eager islands parsed by then (a product page's buy box).
//
// "At the first paint": the frame after the first one that had the header to draw. The first such frame
// was not always painted on the throttled phone (its layout still pending), the next one was; a message
// posted from that frame's callback arrives once it is drawn. The paint entry itself reaches the page
// 300–550 ms late there. Asked for before the paint, the files would share the link with the first screen,
// and Lighthouse would count them as holding it back.

/** What the page script calls if it starts the islands first (a tab opened in the background has no frames). */
export const PRELOAD_HOOK = 'shopPreloadIslands';

export const ISLAND_PRELOAD_BOOT = `;(function(){var r=document.documentElement,d=0;function go(){if(d)return;d=1;var l=(r.getAttribute('data-island-modules')||'').split(' '),s={};document.querySelectorAll('astro-island[client="eager"]').forEach(function(i){l.push(i.getAttribute('component-url'),i.getAttribute('renderer-url'))});l.forEach(function(h){if(!h||s[h])return;s[h]=1;var k=document.createElement('link');k.rel='modulepreload';k.href=h;document.head.appendChild(k)})}window.${PRELOAD_HOOK}=go;(function f(n){requestAnimationFrame(function(){if(!document.querySelector('header')&&document.readyState=='loading')return f(0);if(!n)return f(1);var c=new MessageChannel();c.port1.onmessage=go;c.port2.postMessage(0)})})(0)})()`;
