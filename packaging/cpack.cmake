# The .deb packages, one per install component (docs/INSTALLING.md):
#   throngd              the service, the scenario tool, the systemd unit and its configuration
#   libthrong-client-dev the C++ client: static libraries, headers, CMake and pkg-config files
#   python3-throng       the Python client with its stubs
# `cpack -G DEB` in a build folder makes them; tests/install/deb_test.sh checks them.
set(THRONG_PACKAGE_MAINTAINER "Throng developers <maintainers@throng.invalid>" CACHE STRING
    "Maintainer field of the .deb packages: set the real address before publishing them")

set(packages throngd libthrong-client-dev python3-throng)
set(components throngd client python)

# Debian wants a copyright file and a changelog in every package's doc folder (a native
# package's changelog is changelog.gz).
foreach(package component IN ZIP_LISTS packages components)
  set(doc ${CMAKE_CURRENT_BINARY_DIR}/doc/${package})
  file(MAKE_DIRECTORY ${doc})
  configure_file(debian/changelog.in ${doc}/changelog @ONLY)
  execute_process(COMMAND gzip -9nf ${doc}/changelog COMMAND_ERROR_IS_FATAL ANY)
  install(FILES debian/copyright ${doc}/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/docs/INSTALLING.md
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/throngd COMPONENT throngd)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME throng)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${THRONG_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# DESTDIR staging, so that the install scripts see the prefix /usr and put the
# configuration in /etc (throng_install_sysconf).
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL ${components})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

set(CPACK_DEBIAN_THRONGD_PACKAGE_NAME throngd)
set(CPACK_DEBIAN_THRONGD_PACKAGE_SECTION net)
set(CPACK_DEBIAN_THRONGD_PACKAGE_SHLIBDEPS ON)  # gRPC, Protobuf, prometheus-cpp... from Debian
set(CPACK_DEBIAN_THRONGD_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_THRONGD_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_SOURCE_DIR}/debian/postinst ${CMAKE_CURRENT_SOURCE_DIR}/debian/prerm
    ${CMAKE_CURRENT_SOURCE_DIR}/debian/postrm ${CMAKE_CURRENT_SOURCE_DIR}/debian/conffiles)
set(CPACK_COMPONENT_THRONGD_DESCRIPTION
    "GPU crowd and traffic steering service (gRPC)
throngd answers world snapshots over gRPC: for every pedestrian the
velocity ORCA chooses, for every vehicle its steering, throttle and
brake. It runs on CUDA GPUs or on every CPU core, exports Prometheus
metrics and comes with a hardened systemd unit that reads
/etc/throng/throngd.conf. throng-scenario writes the engine's named
scenarios.")

set(CPACK_DEBIAN_CLIENT_PACKAGE_NAME libthrong-client-dev)
set(CPACK_DEBIAN_CLIENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_CLIENT_PACKAGE_DEPENDS "libgrpc++-dev, libprotobuf-dev")
set(CPACK_COMPONENT_CLIENT_DESCRIPTION
    "C++ client of the Throng steering service
Static libraries, headers and the generated throng.v1 messages for
programs that call throngd, with a CMake package (find_package(Throng),
target Throng::client), a pkg-config file (throng-client) and the
API's protocol buffer definitions.")

set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-throng)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "python3:any, python3-grpcio, python3-protobuf, python3-numpy")
set(CPACK_DEBIAN_PYTHON_PACKAGE_RECOMMENDS "python3-matplotlib, python3-pil")
set(CPACK_COMPONENT_PYTHON_DESCRIPTION
    "Python client of the Throng steering service
numpy columns in and out of throngd's gRPC API, scenario files, a run
summary and a renderer (python3 -m throng).")

include(CPack)
