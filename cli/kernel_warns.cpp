#include "kernel_warns.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

namespace niov::cli {

std::string start_warn_log(const std::string &work) {
	const std::string path = (std::filesystem::path(work) / "kernel-warn.log").string();
	std::ofstream(path, std::ios::trunc);
	setenv("NIOV_KERNEL_WARN_LOG", path.c_str(), 1);
	return path;
}

std::vector<WarnSite> read_warn_log(const std::string &path) {
	std::vector<WarnSite> sites;
	std::map<std::string, size_t> at;
	std::ifstream in(path);
	for (std::string line; std::getline(in, line);) {
		const size_t t1 = line.find('\t');
		if (t1 == std::string::npos)
			continue;
		const size_t t2 = line.find('\t', t1 + 1);
		const std::string site = line.substr(0, t1);
		auto [it, fresh] = at.try_emplace(site, sites.size());
		if (fresh)
			sites.push_back({site, line.substr(t1 + 1, t2 == std::string::npos ? std::string::npos : t2 - t1 - 1),
					 0, t2 == std::string::npos ? "" : line.substr(t2 + 1)});
		sites[it->second].count++;
	}
	return sites;
}

}  // namespace niov::cli
