const fs=require("fs");const f=fs.readdirSync(".").find(f=>f.endsWith(".cpuprofile"));const p=JSON.parse(fs.readFileSync(f));
const self={};const dt=p.timeDeltas;const idx={};p.nodes.forEach(n=>idx[n.id]=n);
const cnt={};p.samples.forEach((s,i)=>{cnt[s]=(cnt[s]||0)+(+dt[i]||0)});
for(const [id,t] of Object.entries(cnt)){const n=idx[id];const k=" "+n.callFrame.functionName.slice(0,110);self[k]=(self[k]||0)+t;}
const tot=Object.values(self).reduce((a,b)=>a+b,0);
Object.entries(self).sort((a,b)=>b[1]-a[1]).slice(0,+process.argv[2]||18).forEach(([k,t])=>console.log((100*t/tot).toFixed(1).padStart(5)+"%",k));
