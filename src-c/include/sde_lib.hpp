/* sde_lib.hpp: the C++ face of software-defined events (include sde_lib.h first), the
 * classes of PAPI 7's header: papi_sde::PapiSde for a library's handle, and its
 * CreatedCounter, Recorder and CountingSet. Every method returns the C call's code;
 * the create_* methods return nullptr when the C call fails. */
#ifndef PAPI_SDE_LIB_HPP
#define PAPI_SDE_LIB_HPP

#include <exception>
#include <new>
#include <type_traits>

#include "sde_lib.h"

namespace papi_sde
{

/* The SDE type code of a C++ type, or -1 when SDEs have none. */
template <typename T> constexpr int sde_type_of()
{
    return std::is_same<T, long long int>::value ? PAPI_SDE_long_long
           : std::is_same<T, int>::value         ? PAPI_SDE_int
           : std::is_same<T, double>::value      ? PAPI_SDE_double
           : std::is_same<T, float>::value       ? PAPI_SDE_float
                                                 : -1;
}

class PapiSde
{
  private:
    papi_handle_t sde_handle;

  public:
    explicit PapiSde(const char *name_of_library) : sde_handle(papi_sde_init(name_of_library))
    {
    }

    class CreatedCounter;
    class Recorder;
    class CountingSet;

    template <typename T> int register_counter(const char *event_name, int cntr_mode, T &counter)
    {
        if (sde_type_of<T>() < 0)
            return SDE_EINVAL;
        return papi_sde_register_counter(sde_handle, event_name, cntr_mode, sde_type_of<T>(),
                                         &counter);
    }

    /* Callbacks return long long int, as the C API's. */
    template <typename T, typename P>
    int register_counter_cb(const char *event_name, int cntr_mode, T (*func_ptr)(P *), P &param)
    {
        if (!std::is_same<T, long long int>::value) {
            SDE_ERROR("register_counter_cb() takes only callbacks returning long long int.");
            return SDE_EINVAL;
        }
        return papi_sde_register_counter_cb(sde_handle, event_name, cntr_mode,
                                            PAPI_SDE_long_long,
                                            reinterpret_cast<papi_sde_fptr_t>(func_ptr), &param);
    }

    int unregister_counter(const char *event_name)
    {
        return papi_sde_unregister_counter(sde_handle, event_name);
    }

    int describe_counter(const char *event_name, const char *event_description)
    {
        return papi_sde_describe_counter(sde_handle, event_name, event_description);
    }

    int add_counter_to_group(const char *event_name, const char *group_name, uint32_t group_flags)
    {
        return papi_sde_add_counter_to_group(sde_handle, event_name, group_name, group_flags);
    }

    CreatedCounter *create_counter(const char *event_name, int cntr_mode);
    Recorder *create_recorder(const char *event_name, size_t typesize,
                              int (*cmpr_func_ptr)(const void *p1, const void *p2));
    CountingSet *create_counting_set(const char *cset_name);

    class Recorder
    {
      private:
        void *recorder_handle = nullptr;

      public:
        Recorder(papi_handle_t sde_handle, const char *event_name, size_t typesize,
                 int (*cmpr_func_ptr)(const void *p1, const void *p2))
        {
            if (papi_sde_create_recorder(sde_handle, event_name, typesize, cmpr_func_ptr,
                                         &recorder_handle) != SDE_OK)
                throw std::exception();
        }
        template <typename T> int record(T const &value)
        {
            return recorder_handle ? papi_sde_record(recorder_handle, sizeof(T), &value)
                                   : SDE_EINVAL;
        }
        int reset(void)
        {
            return recorder_handle ? papi_sde_reset_recorder(recorder_handle) : SDE_EINVAL;
        }
    };

    class CreatedCounter
    {
      private:
        void *counter_handle = nullptr;

      public:
        CreatedCounter(papi_handle_t sde_handle, const char *event_name, int cntr_mode)
        {
            if (papi_sde_create_counter(sde_handle, event_name, cntr_mode, &counter_handle) !=
                SDE_OK)
                throw std::exception();
        }
        /* Any arithmetic increment, converted to long long int. */
        template <typename T> int increment(T const &increment)
        {
            return counter_handle
                       ? papi_sde_inc_counter(counter_handle, static_cast<long long int>(increment))
                       : SDE_EINVAL;
        }
        int reset(void)
        {
            return counter_handle ? papi_sde_reset_counter(counter_handle) : SDE_EINVAL;
        }
    };

    class CountingSet
    {
      private:
        void *cset_handle = nullptr;

      public:
        CountingSet(papi_handle_t sde_handle, const char *cset_name)
        {
            if (papi_sde_create_counting_set(sde_handle, cset_name, &cset_handle) != SDE_OK)
                throw std::exception();
        }
        template <typename T> int insert(T const &element, uint32_t type_id)
        {
            return insert(sizeof(T), element, type_id);
        }
        template <typename T> int insert(size_t hashable_size, T const &element, uint32_t type_id)
        {
            return cset_handle ? papi_sde_counting_set_insert(cset_handle, sizeof(T),
                                                              hashable_size, &element, type_id)
                               : SDE_EINVAL;
        }
        template <typename T> int remove(size_t hashable_size, T const &element, uint32_t type_id)
        {
            return cset_handle ? papi_sde_counting_set_remove(cset_handle, hashable_size,
                                                              &element, type_id)
                               : SDE_EINVAL;
        }
    };
};

/* The create_* methods: nullptr when the C call refused (the constructor threw). */
inline PapiSde::CreatedCounter *PapiSde::create_counter(const char *event_name, int cntr_mode)
{
    try {
        return new CreatedCounter(sde_handle, event_name, cntr_mode);
    } catch (std::exception const &) {
        return nullptr;
    }
}

inline PapiSde::Recorder *
PapiSde::create_recorder(const char *event_name, size_t typesize,
                         int (*cmpr_func_ptr)(const void *p1, const void *p2))
{
    try {
        return new Recorder(sde_handle, event_name, typesize, cmpr_func_ptr);
    } catch (std::exception const &) {
        return nullptr;
    }
}

inline PapiSde::CountingSet *PapiSde::create_counting_set(const char *cset_name)
{
    try {
        return new CountingSet(sde_handle, cset_name);
    } catch (std::exception const &) {
        return nullptr;
    }
}

template <typename T>
PapiSde::CreatedCounter &operator+=(PapiSde::CreatedCounter &X, const T increment)
{
    X.increment(increment);
    return X;
}
inline PapiSde::CreatedCounter &operator++(PapiSde::CreatedCounter &X)
{
    X.increment(1LL);
    return X;
}
inline PapiSde::CreatedCounter &operator--(PapiSde::CreatedCounter &X)
{
    X.increment(-1LL);
    return X;
}

} // namespace papi_sde

#endif
