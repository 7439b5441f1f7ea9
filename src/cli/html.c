/* html.c: the solution player page (see html.h). */
#include "html.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A JSON string that is also safe inside a <script> element. */
static void js_string(strbuf *out, const char *s)
{
    strbuf t;
    sb_init(&t);
    sb_json_string(&t, s);
    for (const char *p = t.s ? t.s : "\"\""; *p; p++) {
        if (*p == '<')
            sb_puts(out, "\\u003c");
        else if (*p == '>')
            sb_puts(out, "\\u003e");
        else if (*p == '&')
            sb_puts(out, "\\u0026");
        else
            sb_putc(out, *p);
    }
    sb_free(&t);
}

/* Plain LURD as run-length LURD: a run of three or more equal letters is
 * written as its count and the letter ("4R"). */
static void rle_moves(strbuf *out, const char *lurd)
{
    sb_putc(out, '"');
    for (const char *p = lurd; *p;) {
        const char *q = p;
        while (*q == *p)
            q++;
        if (q - p >= 3)
            sb_printf(out, "%d%c", (int)(q - p), *p);
        else
            sb_putn(out, p, (size_t)(q - p));
        p = q;
    }
    sb_putc(out, '"');
}

static const char page_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<meta name=\"generator\" content=\"keeper\">\n";

static const char page_style[] =
    "<style>\n"
    "body{margin:0;font:15px/1.4 system-ui,sans-serif;background:#faf7f0;color:#222}\n"
    "#app{display:flex;min-height:100vh}\n"
    "#levels{width:13em;flex:none;overflow-y:auto;max-height:100vh;background:#efe8d8;"
    "border-right:1px solid #d8ceb8;margin:0;padding:.4em 0;list-style:none}\n"
    "#levels li{padding:.15em .8em;cursor:pointer;white-space:nowrap;overflow:hidden;"
    "text-overflow:ellipsis}\n"
    "#levels li:hover{background:#e4dac4}#levels li.cur{background:#c9b98f;font-weight:600}\n"
    "#levels li.none{color:#8a7f6a}#levels li.bad{color:#b00}\n"
    "main{flex:1;padding:1em 1.5em;min-width:0}\n"
    "h1{font-size:1.3em;margin:0 0 .3em}\n"
    "#note{min-height:1.4em;color:#555}#note.bad{color:#b00;font-weight:600}\n"
    "#board{display:block;margin:.6em 0;max-width:100%}\n"
    "#controls{display:flex;flex-wrap:wrap;gap:.4em;align-items:center}\n"
    "button{font:inherit;min-width:2.6em;padding:.25em .6em;border:1px solid #a99a78;"
    "border-radius:4px;background:#fff;cursor:pointer}\n"
    "button:disabled{opacity:.4;cursor:default}\n"
    "#status{margin-top:.5em;font-variant-numeric:tabular-nums}\n"
    "#keys{margin-top:1em;color:#777;font-size:.85em}\n"
    "</style>\n";

static const char page_body[] =
    "</head>\n<body>\n<div id=\"app\">\n<ol id=\"levels\"></ol>\n<main>\n"
    "<h1 id=\"title\"></h1>\n<div id=\"note\"></div>\n"
    "<canvas id=\"board\" width=\"10\" height=\"10\"></canvas>\n"
    "<div id=\"controls\">\n"
    "<button id=\"first\" title=\"to the start (Home)\">|&#x25C0;</button>\n"
    "<button id=\"back\" title=\"one move back (Left)\">&#x25C0;</button>\n"
    "<button id=\"play\" title=\"play / pause (Space)\">Play</button>\n"
    "<button id=\"fwd\" title=\"one move forward (Right)\">&#x25B6;</button>\n"
    "<button id=\"last\" title=\"to the end (End)\">&#x25B6;|</button>\n"
    "<label>speed <input id=\"speed\" type=\"range\" min=\"1\" max=\"60\" value=\"8\"></label>\n"
    "<span id=\"rate\"></span>\n"
    "</div>\n"
    "<div id=\"status\"></div>\n"
    "<div id=\"keys\">Keys: Space play/pause, Left/Right step, Home/End start/end, "
    "+/- speed, PageUp/PageDown (or p/n) previous/next level.</div>\n"
    "</main>\n</div>\n";

/* The player. Squares are r * W + c; a level's state is the box grid and
 * the player; a step back undoes one move (the push flags come from the
 * page's own replay, not from the letter case). */
static const char *const page_script[] = {
    "<script>\n"
    "'use strict';\n"
    "const $=id=>document.getElementById(id);\n"
    "const DR=[0,-1,0,1],DC=[-1,0,1,0];\n",
    "function decode(s){const out=[];const re=/(\\d*)([lurdLURD])/g;let m;"
    "while((m=re.exec(s))){const n=m[1]?+m[1]:1;const d='lurd'.indexOf(m[2].toLowerCase());"
    "for(let i=0;i<n;i++)out.push(d);}return out;}\n",
    "function parse(L){const rows=L.b.map(r=>r.replace(/[-_]/g,' '));const H=rows.length;"
    "const W=Math.max(...rows.map(r=>r.length));const wall=new Uint8Array(W*H),goal=new Uint8Array(W*H),"
    "box=new Uint8Array(W*H);let pl=-1;"
    "for(let r=0;r<H;r++)for(let c=0;c<W;c++){const ch=rows[r][c]||' ',q=r*W+c;"
    "if(ch==='#')wall[q]=1;if('.*+'.includes(ch))goal[q]=1;if('$*'.includes(ch))box[q]=1;"
    "if('@+'.includes(ch))pl=q;}"
    /* inside: the floor the player reaches through non-wall squares */
    "const inside=new Uint8Array(W*H);const st=[pl];if(pl>=0)inside[pl]=1;"
    "while(st.length){const q=st.pop(),r=Math.floor(q/W),c=q%W;for(let d=0;d<4;d++){"
    "const rr=r+DR[d],cc=c+DC[d];if(rr<0||cc<0||rr>=H||cc>=W)continue;const t=rr*W+cc;"
    "if(!wall[t]&&!inside[t]){inside[t]=1;st.push(t);}}}"
    "for(let q=0;q<W*H;q++)if(box[q]||goal[q])inside[q]=1;"
    "return{W,H,wall,goal,box0:box,pl0:pl,inside};}\n"
    /* replays the moves: the push flags, or the first bad move */,
    "function check(G,mv){const box=G.box0.slice();let p=G.pl0;const push=new Uint8Array(mv.length);"
    "const pre=new Int32Array(mv.length+1);"
    "for(let i=0;i<mv.length;i++){const d=mv[i],r=Math.floor(p/G.W)+DR[d],c=p%G.W+DC[d];"
    "if(r<0||c<0||r>=G.H||c>=G.W||G.wall[r*G.W+c])return{err:'move '+(i+1)+' walks into a wall'};"
    "const t=r*G.W+c;if(box[t]){const r2=r+DR[d],c2=c+DC[d];"
    "if(r2<0||c2<0||r2>=G.H||c2>=G.W||G.wall[r2*G.W+c2]||box[r2*G.W+c2])"
    "return{err:'move '+(i+1)+' pushes a blocked box'};box[t]=0;box[r2*G.W+c2]=1;push[i]=1;}"
    "p=t;pre[i+1]=pre[i]+push[i];}"
    "for(let q=0;q<box.length;q++)if(box[q]&&!G.goal[q])return{err:'the moves end with a box off goal'};"
    "return{push,pre};}\n",
    "function name(L){return !L.t||L.t===String(L.n)?'Level '+L.n:L.n+'. '+L.t;}\n"
    "const S={k:0,G:null,mv:[],ok:null,i:0,box:null,p:0,timer:null};\n",
    "function canvasDraw(){const G=S.G,cv=$('board');"
    "const avail=Math.max(200,Math.min(window.innerWidth-(LEVELS.length>1?260:60),900));"
    "const cs=Math.max(8,Math.min(44,Math.floor(Math.min(avail/G.W,520/G.H))));"
    "if(cv.width!==G.W*cs||cv.height!==G.H*cs){cv.width=G.W*cs;cv.height=G.H*cs;}"
    "const x=cv.getContext('2d');x.clearRect(0,0,cv.width,cv.height);"
    "for(let r=0;r<G.H;r++)for(let c=0;c<G.W;c++){const q=r*G.W+c,X=c*cs,Y=r*cs;"
    "if(G.wall[q]){x.fillStyle='#6b5a48';x.fillRect(X,Y,cs,cs);x.fillStyle='#57483a';"
    "x.fillRect(X,Y+cs*.8,cs,cs*.2);continue;}if(!G.inside[q])continue;"
    "x.fillStyle='#efe3c8';x.fillRect(X,Y,cs,cs);"
    "if(G.goal[q]){x.fillStyle='#d0523a';x.beginPath();x.arc(X+cs/2,Y+cs/2,cs*.17,0,7);x.fill();}"
    "if(S.box[q]){const g=G.goal[q];x.fillStyle=g?'#3f8f5a':'#c98a3c';"
    "x.strokeStyle=g?'#2b6a40':'#8f5f24';x.lineWidth=Math.max(1,cs/14);"
    "const m=cs*.1;x.beginPath();x.rect(X+m,Y+m,cs-2*m,cs-2*m);x.fill();x.stroke();"
    "x.beginPath();x.moveTo(X+m,Y+m);x.lineTo(X+cs-m,Y+cs-m);x.moveTo(X+cs-m,Y+m);"
    "x.lineTo(X+m,Y+cs-m);x.stroke();}"
    "if(q===S.p){x.fillStyle='#2f5fa8';x.beginPath();x.arc(X+cs/2,Y+cs/2,cs*.32,0,7);x.fill();"
    "x.fillStyle='#fff';x.beginPath();x.arc(X+cs/2,Y+cs*.42,cs*.1,0,7);x.fill();}}}\n",
    "function status(){const G=S.G;let solved=1;"
    "for(let q=0;q<S.box.length;q++)if(S.box[q]&&!G.goal[q])solved=0;"
    "const el=$('status'),L=LEVELS[S.k],n=S.ok&&S.ok.push?S.mv.length:0;"
    "const pu=S.ok&&S.ok.pre?S.ok.pre[S.i]:0,tp=S.ok&&S.ok.pre?S.ok.pre[n]:0;"
    "el.dataset.level=L.n;el.dataset.step=S.i;el.dataset.moves=S.i;el.dataset.pushes=pu;"
    "el.dataset.totalMoves=n;el.dataset.totalPushes=tp;el.dataset.solved=solved?'1':'0';"
    "el.dataset.valid=!L.s?'none':S.ok.err?'0':'1';"
    "el.textContent=L.s&&!S.ok.err?'moves '+S.i+' / '+n+'   pushes '+pu+' / '+tp+(solved?'   solved':''):"
    "(solved?'solved':'');"
    "const none=!L.s||!!S.ok.err;for(const id of['first','back','play','fwd','last'])$(id).disabled=none;"
    "$('play').textContent=S.timer?'Pause':'Play';canvasDraw();}\n",
    "function reset(){S.box=S.G.box0.slice();S.p=S.G.pl0;S.i=0;}\n",
    "function fwd(){if(!S.ok||S.ok.err||S.i>=S.mv.length)return false;const G=S.G,d=S.mv[S.i];"
    "const t=S.p+DR[d]*G.W+DC[d];if(S.ok.push[S.i]){S.box[t]=0;S.box[t+DR[d]*G.W+DC[d]]=1;}"
    "S.p=t;S.i++;return true;}\n",
    "function back(){if(S.i<=0)return;S.i--;const G=S.G,d=S.mv[S.i],o=DR[d]*G.W+DC[d];"
    "if(S.ok.push[S.i]){S.box[S.p+o]=0;S.box[S.p]=1;}S.p-=o;}\n",
    "function stop(){if(S.timer){clearInterval(S.timer);S.timer=null;}}\n",
    "function go(i){stop();if(i<S.i)reset();while(S.i<i&&fwd());status();}\n",
    "function play(){if(S.timer){stop();status();return;}if(S.i>=S.mv.length)reset();"
    "S.timer=setInterval(()=>{if(!fwd())stop();status();},1000/+$('speed').value);status();}\n",
    "function rate(){$('rate').textContent=$('speed').value+' moves/s';"
    "if(S.timer){stop();play();}}\n",
    "function load(k,step){stop();S.k=k;const L=LEVELS[k];S.G=parse(L);S.mv=L.s?decode(L.s):[];"
    "S.ok=L.s?check(S.G,S.mv):{};reset();$('title').textContent=name(L);"
    "const note=$('note');note.className='';"
    "if(!L.s)note.textContent='No solution for this level.';"
    "else if(S.ok.err){note.textContent='This solution does not solve the level: '+S.ok.err+'.';"
    "note.className='bad';}else note.textContent=L.m+' moves, '+L.p+' pushes';"
    "for(const li of document.querySelectorAll('#levels li'))li.classList.toggle('cur',+li.dataset.k===k);"
    "if(step==='end')go(S.mv.length);else go(Math.max(0,Math.min(+step||0,S.mv.length)));}\n",
    "function init(){const ol=$('levels');if(LEVELS.length<2)ol.style.display='none';"
    "LEVELS.forEach((L,k)=>{const li=document.createElement('li');li.dataset.k=k;"
    "li.textContent=name(L)+(L.s?'':' (no solution)');if(!L.s)li.className='none';"
    "else if(check(parse(L),decode(L.s)).err)li.className='bad';"
    "li.onclick=()=>load(k,0);ol.appendChild(li);});"
    "$('first').onclick=()=>go(0);$('last').onclick=()=>go(S.mv.length);"
    "$('back').onclick=()=>{stop();back();status();};$('fwd').onclick=()=>{stop();fwd();status();};"
    "$('play').onclick=play;$('speed').oninput=rate;rate();"
    "document.addEventListener('keydown',e=>{if(e.target.tagName==='INPUT'&&e.key!==' ')return;"
    "const sp=$('speed');let used=true;switch(e.key){"
    "case ' ':case 'k':play();break;case 'ArrowRight':case 'l':stop();fwd();status();break;"
    "case 'ArrowLeft':case 'h':stop();back();status();break;case 'Home':go(0);break;"
    "case 'End':go(S.mv.length);break;case '+':case '=':sp.value=+sp.value+2;rate();break;"
    "case '-':sp.value=+sp.value-2;rate();break;"
    "case 'PageDown':case 'n':if(S.k+1<LEVELS.length)load(S.k+1,0);break;"
    "case 'PageUp':case 'p':if(S.k>0)load(S.k-1,0);break;default:used=false;}"
    "if(used)e.preventDefault();});"
    "window.addEventListener('resize',canvasDraw);"
    "const h=new URLSearchParams(location.hash.slice(1));let k=0;"
    "if(h.has('level')){const f=LEVELS.findIndex(L=>String(L.n)===h.get('level'));if(f>=0)k=f;}"
    "load(k,h.get('step')||0);}\n",
    "init();\n"
    "</script>\n</body>\n</html>\n",
    NULL};

void html_page(strbuf *out, const char *title, const html_level *levels, int n)
{
    sb_puts(out, page_head);
    strbuf t;
    sb_init(&t);
    /* the title as HTML text */
    for (const char *p = title ? title : ""; *p; p++) {
        if (*p == '<')
            sb_puts(&t, "&lt;");
        else if (*p == '>')
            sb_puts(&t, "&gt;");
        else if (*p == '&')
            sb_puts(&t, "&amp;");
        else
            sb_putc(&t, *p);
    }
    sb_printf(out, "<title>keeper: %s</title>\n", t.s ? t.s : "");
    sb_free(&t);
    sb_puts(out, page_style);
    sb_puts(out, page_body);
    sb_puts(out, "<script>\nconst LEVELS=[\n");
    for (int k = 0; k < n; k++) {
        const level *lv = levels[k].lv;
        sb_printf(out, "{n:%d,t:", lv->index);
        js_string(out, lv->title ? lv->title : "");
        sb_puts(out, ",b:[");
        strbuf bd;
        sb_init(&bd);
        level_write_board(&bd, lv);
        const char *p = bd.s ? bd.s : "";
        int first = 1;
        while (*p) {
            const char *e = strchr(p, '\n');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            char *row = xstrndup(p, len);
            if (!first)
                sb_putc(out, ',');
            js_string(out, row);
            free(row);
            first = 0;
            p += len + (e != NULL);
        }
        sb_free(&bd);
        sb_putc(out, ']');
        if (levels[k].lurd) {
            size_t pushes = 0;
            for (const char *q = levels[k].lurd; *q; q++)
                pushes += *q >= 'A' && *q <= 'Z';
            sb_printf(out, ",m:%zu,p:%zu,s:", strlen(levels[k].lurd), pushes);
            rle_moves(out, levels[k].lurd);
        }
        sb_puts(out, k + 1 < n ? "},\n" : "}\n");
    }
    sb_puts(out, "];\n</script>\n");
    for (int i = 0; page_script[i]; i++)
        sb_puts(out, page_script[i]);
}

int html_write_file(const char *path, const char *title, const html_level *levels, int n,
                    int quiet)
{
    strbuf page;
    sb_init(&page);
    html_page(&page, title, levels, n);
    errno = 0;
    FILE *f = fopen(path, "w");
    int ok = f && fwrite(page.s, 1, page.len, f) == page.len;
    int err = errno;
    if (f && fclose(f) != 0) {
        ok = 0;
        err = errno;
    }
    if (!ok) {
        fprintf(stderr, "%s: error: cannot write: %s\n", path, err ? strerror(err) : "I/O error");
    } else if (!quiet) {
        int nsol = 0;
        for (int k = 0; k < n; k++)
            nsol += levels[k].lurd != NULL;
        fprintf(stderr, "keeper: wrote %s: %d level%s, %d with a solution, %zu bytes\n", path, n,
                n == 1 ? "" : "s", nsol, page.len);
    }
    sb_free(&page);
    return ok ? 0 : -1;
}
